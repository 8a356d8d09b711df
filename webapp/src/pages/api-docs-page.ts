import type { DocsPageContent } from "@linkgeo/shared";
import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * /docs as a page of the web app: its header, navigation, theme and colours
 * around Swagger UI on the merged spec (every endpoint of the gateway, the
 * shortener and the geocoder). Swagger UI's own files come from the shared
 * docs routes (`content`); the theme script sets `dark-mode` on <html>,
 * which Swagger UI's stylesheet follows, and style.css's api-docs rules
 * give it the app's fonts and surfaces.
 */
export function apiDocsPage(content: DocsPageContent): Page {
  return {
    title: "API docs",
    current: "docs",
    swaggerUi: { stylesheet: content.stylesheet, scripts: [content.bundle, content.init] },
    main: html`<h1>API docs</h1>
<p class="lead">Every endpoint behind this address: the shortener, the geocoder and the gateway's own. "Try it out" sends a real request from this browser, with your own credentials.</p>
<div id="swagger-ui" class="api-docs" data-spec-url="${content.spec}"></div>`,
  };
}
