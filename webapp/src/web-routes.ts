import { domainHostShape, maxBodyBytes, mediaTypeOf, readBodyLimited, RouteNotFound, shortCodeIn, storedCodingFor } from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { adminPage } from "./pages/admin-page.ts";
import { geocoderPage } from "./pages/geocoder-page.ts";
import { homePage, type SentShortenForm } from "./pages/home-page.ts";
import { invitePage } from "./pages/invite-page.ts";
import { linkPage } from "./pages/link-page.ts";
import { notFoundPage } from "./pages/not-found-page.ts";
import { workspacesPage } from "./pages/workspaces-page.ts";
import { yourLinksPage } from "./pages/your-links-page.ts";
import { renderPage } from "./page-shell.ts";
import { assetPrefix, type WebAssets } from "./web-assets.ts";

/** The prefix every page but the home page lives under; a reserved word of the shortener. */
export const webPrefix = "/app";

/**
 * Whether the shortener knows a link: its code, on `domain` (absent: the
 * default domain), asked as the page's own calls ask, on `host` (the host
 * the page was asked on, which the default domain's may be). True, false,
 * or undefined when it could not say (down, slow).
 */
export type LinkIsKnown = (code: string, on: { domain?: string; host: string }) => Promise<boolean | undefined>;

/**
 * What `/` is on `host` (`host[:port]`, as asked): a redirect to its
 * domain's root URL, the home page (the default domain's root), or nothing
 * (an added domain without a root URL); undefined when the shortener could
 * not say (down, slow), and the home page is served.
 */
export type RootOf = (host: string) => Promise<{ redirect: string } | "home" | "none" | undefined>;

/** The questions a page asks the shortener before it is served, and of what host. */
export interface PageQuestions {
  linkIsKnown: LinkIsKnown;
  rootOf: RootOf;
  /** The host a person asked (`host[:port]`), as the services are told it: a trusted proxy's X-Forwarded-Host, else Host. */
  hostOf: (request: Request, server: Server | null) => string;
}

/**
 * The pages for people: `/` and everything under `/app/`. Pages are static
 * HTML (the scripts fetch what they show from the API, with the visitor's
 * own credentials), so they cost the gateway no upstream call, but two: a
 * link's page asks `linkIsKnown` first, so that the page of a code no link
 * has is a 404 (a malformed code is one without asking), and `/` asks
 * `rootOf` its host, which a domain may send elsewhere (docs/domains.md).
 * When the shortener cannot say, the page is served and its script tells.
 */
export function webRoutes(assets: WebAssets, { linkIsKnown, rootOf, hostOf }: PageQuestions) {
  return (
    new Elysia({ name: "web-app" })
      .get(
        "/",
        async ({ request, server }) => {
          const root = await rootOf(hostOf(request, server));
          if (root === "none") return renderPage(assets, notFoundPage("root", "visitor"));
          if (root !== undefined && root !== "home") {
            return new Response(null, { status: 302, headers: { location: root.redirect, "cache-control": "private, max-age=0" } });
          }
          return renderPage(assets, homePage());
        },
        { detail: { hide: true } },
      )
      // The shorten form sent by the browser itself, its script not running: the page again, as it was typed.
      .post(
        "/",
        async ({ request }) => {
          const sent = await sentShortenForm(request);
          // Any other form (the manage-token one, also posting here) is answered as before: no such route.
          if (sent === undefined) throw RouteNotFound.here();
          return renderPage(assets, homePage(sent));
        },
        { parse: "none", detail: { hide: true } },
      )
      .get(webPrefix, ({ redirect }) => redirect("/", 308), { detail: { hide: true } })
      .get(`${webPrefix}/links`, () => renderPage(assets, yourLinksPage), { detail: { hide: true } })
      .get(
        `${webPrefix}/links/:code`,
        async ({ request, server }) => {
          // The segment as sent, decoded once here (a malformed escape is no code), as the route table reads codes.
          const url = new URL(request.url);
          const code = shortCodeIn(url.pathname.split("/")[3] ?? "");
          // A link on another domain: `?domain=<host>` (docs/domains.md); a value no host could be is none.
          const domain = url.searchParams.get("domain") ?? undefined;
          const known =
            code === undefined || (domain !== undefined && !domainHostShape.test(domain))
              ? false
              : await linkIsKnown(code, { domain, host: hostOf(request, server) });
          return renderPage(assets, known === false ? notFoundPage("link", "app") : linkPage(assets));
        },
        { detail: { hide: true } },
      )
      .get(`${webPrefix}/workspaces`, () => renderPage(assets, workspacesPage), { detail: { hide: true } })
      // The invite's token is the address's fragment, which never reaches a server.
      .get(`${webPrefix}/invite`, () => renderPage(assets, invitePage), { detail: { hide: true } })
      .get(`${webPrefix}/admin`, () => renderPage(assets, adminPage), { detail: { hide: true } })
      .get(`${webPrefix}/geocoder`, () => renderPage(assets, geocoderPage(assets)), { detail: { hide: true } })
      .get(`${assetPrefix}*`, ({ request }) => serveAsset(assets, request), { detail: { hide: true } })
      .get(`${webPrefix}/*`, () => renderPage(assets, notFoundPage("page", "app")), { detail: { hide: true } })
  );
}

/**
 * What a browser sent from the home page's shorten form, by the names its
 * fields have (undefined for a body that is not that form); anything else is
 * left out. Nothing is checked or acted on: it is only shown again (escaped,
 * as every value). The password is never read.
 */
async function sentShortenForm(request: Request): Promise<SentShortenForm | undefined> {
  const bytes = await readBodyLimited(request, maxBodyBytes);
  const isForm = mediaTypeOf(request) === "application/x-www-form-urlencoded";
  const form = new URLSearchParams(isForm && bytes ? new TextDecoder().decode(bytes) : "");
  if (!form.has("long_url")) return undefined;
  const text = (name: string) => form.get(name) ?? undefined;
  return {
    long_url: text("long_url"),
    alias: text("alias"),
    expires_at: text("expires_at"),
    max_visits: text("max_visits"),
    expired_url: text("expired_url"),
    redirect_status: text("redirect_status"),
    tags: text("tags"),
    title: text("title"),
    forward_query: form.has("forward_query"),
    public_stats: form.has("public_stats"),
  };
}

/** A fingerprinted file: the name changes with the content, so it is cached for a year. */
function serveAsset(assets: WebAssets, request: Request): Response {
  const path = new URL(request.url).pathname;
  const asset = assets.get(path);
  if (!asset) return new Response("not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const gzip = storedCodingFor(request.headers.get("accept-encoding")) === "gzip";
  return new Response(gzip ? asset.gzipped : asset.body, {
    headers: {
      "content-type": asset.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
  });
}
