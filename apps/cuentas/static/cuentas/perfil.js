// Profile: the date of a new token is asked only when "Otra fecha…" is chosen (without
// JavaScript both fields stay visible and the date counts only with that choice).
(function () {
  "use strict";

  function iniciar() {
    var vigencia = document.getElementById("id_dias");
    var fecha = document.querySelector("[data-otra-fecha]");
    if (!vigencia || !fecha) { return; }
    function mostrar() {
      var otra = vigencia.value === "fecha";
      fecha.hidden = !otra;
      if (otra && document.activeElement === vigencia) {
        document.getElementById("id_fecha").focus();
      }
    }
    vigencia.addEventListener("change", mostrar);
    mostrar();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", iniciar);
  } else {
    iniciar();
  }
})();
