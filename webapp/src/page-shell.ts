import { docsPagePolicy } from "@linkgeo/shared";
import { siteFooter, siteHeader, type Audience, type NavItem } from "./components/site-header/view.ts";
import { html, type SafeHtml } from "./html.ts";
import type { PageScript, WebAssets } from "./web-assets.ts";

export type { Audience, NavItem } from "./components/site-header/view.ts";

export interface Page {
  title: string;
  /** Who the page is for ("app" unless said): a visitor's page shows the brand only, none of the operator's navigation. */
  audience?: Audience;
  /** The navigation entry marked as the current page. */
  current?: NavItem;
  /** The page's own script, if it has one. */
  script?: PageScript;
  /** What goes inside <main>. */
  main: SafeHtml;
  status?: number;
  /**
   * Where the page's forms may lead: "self" (the default) or "web", for a
   * form whose answer redirects to any http(s) address (a protected link's
   * password form): Chromium applies form-action to the redirects too.
   */
  formTargets?: "self" | "web";
  /**
   * Swagger UI on the page (/docs): its stylesheet, before the app's so the
   * app's rules win, and its classic scripts at the end of the body. The
   * page then keeps the docs page's policy (`docsPagePolicy`: Swagger UI
   * sets inline styles and uses data: images).
   */
  swaggerUi?: { stylesheet: string; scripts: readonly string[] };
}

/**
 * Scripts and styles come only from our own fingerprinted files: no inline
 * script or style, no other origin. The API is same-origin, so `connect-src
 * 'self'` is all the pages need; `blob:` images are the QR code's PNG.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The same policy, but forms may lead to any web address: see `Page.formTargets`. */
export const webFormContentSecurityPolicy = contentSecurityPolicy.replace("form-action 'self'", "form-action 'self' https: http:");

const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  // The HTML names this build's fingerprinted files: always ask again.
  "cache-control": "no-cache",
};

export function renderPage(assets: WebAssets, page: Page): Response {
  const audience = page.audience ?? "app";
  const script = page.script ? html`<script type="module" src="${assets.scriptUrl(page.script)}"></script>` : null;
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${page.title} · linkgeo</title>
<script src="${assets.scriptUrl("theme")}"></script>
<link rel="icon" href="${assets.staticUrl("icon.svg")}" type="image/svg+xml">
${page.swaggerUi ? html`<link rel="stylesheet" href="${page.swaggerUi.stylesheet}">` : null}
<link rel="stylesheet" href="${assets.stylesheetUrl}">
${script}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${siteHeader(assets.staticUrl("icon.svg"), audience, page.current)}
<main id="main" tabindex="-1">
${page.main}
</main>
${siteFooter(audience)}
${page.swaggerUi?.scripts.map((src) => html`<script src="${src}"></script>`) ?? null}
</body>
</html>
`;
  const policy = page.swaggerUi ? docsPagePolicy : page.formTargets === "web" ? webFormContentSecurityPolicy : contentSecurityPolicy;
  return new Response(document.value, { status: page.status ?? 200, headers: { ...pageHeaders, "content-security-policy": policy } });
}
