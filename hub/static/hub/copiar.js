// Copy buttons without inline script (the pages' CSP forbids it):
// <button data-copiar="id-of-input-or-block" [data-copiado="Copiada"]>, <input data-seleccionar>.
(function () {
  "use strict";

  function copiar(texto, listo) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(texto).then(listo);
      return;
    }
    var area = document.createElement("textarea");
    area.value = texto;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    document.body.removeChild(area);
    listo();
  }

  function iniciar() {
    document.querySelectorAll("[data-copiar]").forEach(function (boton) {
      boton.addEventListener("click", function () {
        var origen = document.getElementById(boton.dataset.copiar);
        var texto = origen.value !== undefined ? origen.value : origen.textContent;
        copiar(texto, function () {
          boton.textContent = boton.dataset.copiado || "Copiado";
        });
      });
    });
    document.querySelectorAll("[data-seleccionar]").forEach(function (campo) {
      campo.addEventListener("click", function () { campo.select(); });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", iniciar);
  } else {
    iniciar();
  }
})();
