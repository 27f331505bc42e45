// Brand editor: each colour's swatch and hex value kept equal, its contrast on white shown as
// it changes (WCAG), and the sign-in preview redrawn with the values being typed.
(function () {
  "use strict";

  var HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;
  var MINIMO = 4.5;
  var CAMPOS_VISTA = ["modo", "nombre", "tagline", "nombre_entidad", "color_primario",
    "color_acento", "login_titulo", "login_bullets"];

  function normalizar(texto) {
    var m = HEX.exec((texto || "").trim());
    if (!m) { return null; }
    var c = m[1];
    if (c.length === 3) { c = c[0] + c[0] + c[1] + c[1] + c[2] + c[2]; }
    return "#" + c.toUpperCase();
  }

  function luminancia(color) {
    var canales = [1, 3, 5].map(function (i) {
      var c = parseInt(color.substr(i, 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * canales[0] + 0.7152 * canales[1] + 0.0722 * canales[2];
  }

  function contraste(color) {
    return 1.05 / (luminancia(color) + 0.05);  // against white (luminance 1)
  }

  function mostrarContraste(campo) {
    var aviso = document.querySelector('[data-contraste-de="' + campo.id + '"]');
    if (!aviso) { return; }
    var color = normalizar(campo.value);
    if (!color) {
      aviso.textContent = "Escriba un color de la forma #RRGGBB.";
      aviso.className = "contraste bajo";
      return;
    }
    var relacion = contraste(color);
    var texto = "Contraste sobre blanco: " + relacion.toFixed(1).replace(".", ",") + ":1";
    var bajo = campo.name === "color_primario" && relacion < MINIMO;
    if (bajo) {
      texto += ". Se lee poco sobre blanco: los enlaces y los títulos usarán un tono más oscuro.";
    }
    aviso.textContent = texto;
    aviso.className = bajo ? "contraste bajo" : "contraste";
  }

  function iniciarColores() {
    document.querySelectorAll("input[data-color]").forEach(function (campo) {
      var muestra = document.querySelector('[data-muestra-de="' + campo.id + '"]');
      if (muestra) {
        muestra.addEventListener("input", function () {
          campo.value = muestra.value.toUpperCase();
          campo.dispatchEvent(new Event("input", { bubbles: true }));
        });
      }
      campo.addEventListener("input", function () {
        var color = normalizar(campo.value);
        if (color && muestra) { muestra.value = color.toLowerCase(); }
        mostrarContraste(campo);
      });
      mostrarContraste(campo);
    });
  }

  function iniciarVistaPrevia() {
    var marco = document.querySelector("iframe[data-vista-previa]");
    if (!marco) { return; }
    var base = marco.getAttribute("src");
    var formulario = marco.closest("form");
    var espera = null;

    function actualizar() {
      var datos = new URLSearchParams();
      CAMPOS_VISTA.forEach(function (nombre) {
        var campo = formulario.elements.namedItem(nombre);
        if (campo && campo.value !== undefined) { datos.set(nombre, campo.value); }
      });
      marco.src = base + "?" + datos.toString();
    }

    formulario.addEventListener("input", function (evento) {
      if (CAMPOS_VISTA.indexOf(evento.target.name) < 0) { return; }
      clearTimeout(espera);
      espera = setTimeout(actualizar, 300);
    });
    formulario.addEventListener("change", function (evento) {
      if (evento.target.name === "modo") { actualizar(); }
    });
    actualizar();
  }

  function iniciar() {
    iniciarColores();
    iniciarVistaPrevia();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", iniciar);
  } else {
    iniciar();
  }
})();
