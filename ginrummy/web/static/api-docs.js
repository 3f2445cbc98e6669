// The API documentation page (/api/docs): Swagger UI, served by this server, over its schema.
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  // swagger-ui-bundle.js, loaded before this file, leaves its entry point on window.
  /** @type {any} */
  const swaggerUI = Reflect.get(window, "SwaggerUIBundle");
  swaggerUI({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    presets: [swaggerUI.presets.apis],
  });
});
