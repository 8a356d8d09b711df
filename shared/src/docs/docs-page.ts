export const initScriptName = "docs-init.js";

/**
 * Starts Swagger UI on the page's spec. A file rather than an inline script so
 * the page's Content-Security-Policy can forbid inline scripts. The spec URL is
 * read from the page, relative to it, so the page works under any path prefix.
 */
export const initScript = `"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute("data-spec-url"), document.baseURI).href,
    domNode: root,
    // Off: with it each operation's path is a link inside its summary button (nested controls, which screen readers cannot reach).
    deepLinking: false,
    // The default sends the spec's URL to validator.swagger.io for a badge: a request to the internet.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
})();
`;

/**
 * Everything the page loads comes from the service that serves it (self) and nothing else:
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

export interface DocsPageContent {
  /** The browser tab's title; Swagger UI shows the spec's own info.title on the page. */
  title: string;
  /** Each asset's URL relative to the page, version query included. */
  stylesheet: string;
  icon: string;
  bundle: string;
  init: string;
  spec: string;
}

/** The HTML of /docs: only relative URLs, so nothing is fetched from another origin. */
export function docsPage(content: DocsPageContent): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(content.title)}</title>
    <link rel="stylesheet" href="${content.stylesheet}">
    <link rel="icon" type="image/png" href="${content.icon}">
  </head>
  <body>
    <div id="swagger-ui" data-spec-url="${content.spec}"></div>
    <script src="${content.bundle}"></script>
    <script src="${content.init}"></script>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
