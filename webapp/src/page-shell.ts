import { docsPagePolicy } from "@linkgeo/shared";
import { html, type SafeHtml } from "./html.ts";
import type { PageScript, WebAssets } from "./web-assets.ts";

/** The one navigation every page shows, in this order. */
const navigation = [
  { id: "home", href: "/", label: "Shorten" },
  { id: "links", href: "/app/links", label: "Your links" },
  { id: "geocoder", href: "/app/geocoder", label: "Geocoder" },
  { id: "admin", href: "/app/admin", label: "Admin" },
  { id: "docs", href: "/docs", label: "API docs" },
] as const;

export type NavItem = (typeof navigation)[number]["id"];

export interface Page {
  title: string;
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

/** The header's theme menu, shown by the theme script (client/theme.ts): without scripts it could not work. */
const themeMenu = html`<p class="theme-menu" hidden><label for="theme-choice">Theme</label>
<select id="theme-choice"><option value="system">System</option><option value="light">Light</option><option value="dark">Dark</option></select></p>`;

export function renderPage(assets: WebAssets, page: Page): Response {
  const nav = navigation.map((item) => html`<li><a href="${item.href}"${item.id === page.current ? html` aria-current="page"` : null}>${item.label}</a></li>`);
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
<header class="site-header">
<a class="brand" href="/"><img src="${assets.staticUrl("icon.svg")}" alt="" width="28" height="28"> linkgeo</a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
${themeMenu}
</header>
<main id="main" tabindex="-1">
${page.main}
</main>
<footer class="site-footer"><p>Self-hosted URL shortener and reverse geocoder · <a href="/docs">API docs</a></p></footer>
${page.swaggerUi?.scripts.map((src) => html`<script src="${src}"></script>`) ?? null}
</body>
</html>
`;
  const policy = page.swaggerUi ? docsPagePolicy : page.formTargets === "web" ? webFormContentSecurityPolicy : contentSecurityPolicy;
  return new Response(document.value, { status: page.status ?? 200, headers: { ...pageHeaders, "content-security-policy": policy } });
}
