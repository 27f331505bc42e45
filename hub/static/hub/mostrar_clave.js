// Show-password button after each password field of a form marked data-mostrar-clave
// (a file, not inline script: the pages' CSP forbids inline code without its nonce).
(function () {
  "use strict";

  function iniciar() {
    document.querySelectorAll("form[data-mostrar-clave] input[type=password]").forEach(function (campo) {
      var boton = document.createElement("button");
      boton.type = "button";
      boton.className = "mostrar-clave";
      boton.textContent = "Mostrar";
      if (campo.id) { boton.setAttribute("aria-controls", campo.id); }
      boton.addEventListener("click", function () {
        var visible = campo.type === "password";
        campo.type = visible ? "text" : "password";
        boton.textContent = visible ? "Ocultar" : "Mostrar";
        campo.focus();
      });
      var envoltura = document.createElement("div");
      envoltura.className = "campo-clave";
      campo.parentNode.insertBefore(envoltura, campo);
      envoltura.appendChild(campo);
      envoltura.appendChild(boton);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", iniciar);
  } else {
    iniciar();
  }
})();
