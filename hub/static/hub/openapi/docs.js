// Starts Swagger UI on /api/docs/ from a file, so the page needs no inline script (strict CSP).
"use strict";
(function () {
  const contenedor = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: contenedor.dataset.esquema,
    domNode: contenedor,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    // No call to the public validator service: the page loads nothing from other sites.
    validatorUrl: null,
    displayRequestDuration: true,
    tryItOutEnabled: false,
  });
})();
