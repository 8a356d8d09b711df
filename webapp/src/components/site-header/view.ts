import { html, type SafeHtml } from "../../html.ts";

/** The one navigation of the app's pages, in this order. */
export const navigation = [
  { id: "home", href: "/", label: "Shorten" },
  { id: "links", href: "/app/links", label: "Your links" },
  { id: "workspaces", href: "/app/workspaces", label: "Workspaces" },
  { id: "geocoder", href: "/app/geocoder", label: "Geocoder" },
  { id: "admin", href: "/app/admin", label: "Admin" },
  { id: "docs", href: "/docs", label: "API docs" },
] as const;

export type NavItem = (typeof navigation)[number]["id"];

/**
 * Who a page is for. "app": a person using the app (shortening, their links,
 * the admin), who gets the navigation and the theme menu. "visitor": anyone
 * who followed a short link or an address (a link's password form, a gone,
 * unknown or unavailable page): the brand only, as the operator's own pages
 * are nothing to them.
 */
export type Audience = "app" | "visitor";

/** The brand: the icon and the name, leading to the home page. */
function brand(iconUrl: string): SafeHtml {
  return html`<a class="brand" href="/"><img src="${iconUrl}" alt="" width="28" height="28"> linkgeo</a>`;
}

/** The navigation, `current` marked. */
function siteNavigation(current: NavItem | undefined): SafeHtml {
  const items = navigation.map((item) => html`<li><a href="${item.href}"${item.id === current ? html` aria-current="page"` : null}>${item.label}</a></li>`);
  return html`<nav class="site-nav" aria-label="Main"><ul>${items}</ul></nav>`;
}

/** The header's theme menu, shown by the theme script (client/theme.ts): without scripts it could not work. */
const themeMenu = html`<p class="theme-menu" hidden><label for="theme-choice">Theme</label>
<select id="theme-choice"><option value="system">System</option><option value="light">Light</option><option value="dark">Dark</option></select></p>`;

/**
 * Every page's header. For the app: the brand, then the navigation
 * (`current` marked) and the theme menu, which a phone folds behind "Menu"
 * so that the header stays one row: a <details>, which opens and closes
 * without a script; on a wider screen the stylesheet shows its content in
 * the row and hides "Menu". For a visitor: the brand.
 */
export function siteHeader(iconUrl: string, audience: Audience, current: NavItem | undefined): SafeHtml {
  if (audience === "visitor") return html`<header class="site-header">${brand(iconUrl)}</header>`;
  return html`<header class="site-header">
${brand(iconUrl)}
<details class="header-menu">
<summary>Menu</summary>
<div class="header-menu-panel">
${siteNavigation(current)}
${themeMenu}
</div>
</details>
</header>`;
}

/** Every page's footer; a visitor's has no link into the app. */
export function siteFooter(audience: Audience): SafeHtml {
  const docs = audience === "app" ? html` · <a href="/docs">API docs</a>` : null;
  return html`<footer class="site-footer"><p>Self-hosted URL shortener and reverse geocoder${docs}</p></footer>`;
}
