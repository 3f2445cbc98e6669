// The API documentation page (/api/docs): Swagger UI, served by this server, over its schema.
/* global SwaggerUIBundle */
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
