import { mergedTitle } from "./merge-specs.ts";

export const initScriptName = "docs-init.js";

/**
 * Starts Swagger UI on the merged spec. A file rather than an inline script so
 * the page's Content-Security-Policy can forbid inline scripts. The spec URL is
 * read from the page, relative to it, so the page works under any path prefix.
 */
export const initScript = `"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute("data-spec-url"), document.baseURI).href,
    domNode: root,
    deepLinking: true,
    // The default sends the spec's URL to validator.swagger.io for a badge: a request to the internet.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
})();
`;

/**
 * Everything the page loads comes from the gateway (self) and nothing else:
 * the browser enforces "no CDN" even if a future Swagger UI tried one.
 * Swagger UI sets inline style attributes and uses data: images in its CSS.
 */
export const docsPagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

export interface DocsPageLinks {
  /** Each asset's URL relative to the page, version query included. */
  stylesheet: string;
  icon: string;
  bundle: string;
  init: string;
  spec: string;
}

/** The HTML of /docs: only relative URLs, so nothing is fetched from another origin. */
export function docsPage(links: DocsPageLinks): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${mergedTitle}</title>
    <link rel="stylesheet" href="${links.stylesheet}">
    <link rel="icon" type="image/png" href="${links.icon}">
  </head>
  <body>
    <div id="swagger-ui" data-spec-url="${links.spec}"></div>
    <script src="${links.bundle}"></script>
    <script src="${links.init}"></script>
  </body>
</html>
`;
}
