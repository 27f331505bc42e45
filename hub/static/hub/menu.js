// On a phone the top menu folds behind a «Menú» button (a file, not inline script: the CSP).
// Without this script the menu simply stays unfolded.
(function () {
  "use strict";

  function iniciar() {
    var barra = document.querySelector(".barra");
    var boton = document.getElementById("menu-boton");
    if (!barra || !boton) { return; }
    barra.classList.add("menu-plegable");
    boton.hidden = false;
    boton.addEventListener("click", function () {
      var abierto = barra.classList.toggle("menu-abierto");
      boton.setAttribute("aria-expanded", abierto ? "true" : "false");
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", iniciar);
  } else {
    iniciar();
  }
})();
