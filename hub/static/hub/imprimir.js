// Print buttons without inline script (the pages' CSP forbids it): <button data-imprimir>.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-imprimir]").forEach(function (boton) {
      boton.addEventListener("click", function () { window.print(); });
    });
  });
})();
