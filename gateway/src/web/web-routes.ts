import { storedCodingFor } from "@linkgeo/shared";
import { Elysia } from "elysia";
import { adminPage } from "./pages/admin-page.ts";
import { geocoderPage } from "./pages/geocoder-page.ts";
import { homePage } from "./pages/home-page.ts";
import { linkPage } from "./pages/link-page.ts";
import { notFoundPage } from "./pages/not-found-page.ts";
import { renderPage } from "./page-shell.ts";
import { assetPrefix, type WebAssets } from "./web-assets.ts";

/** The prefix every page but the home page lives under; a reserved word of the shortener. */
export const webPrefix = "/app";

/**
 * The pages for people: `/` and everything under `/app/`. Pages are static
 * HTML (the scripts fetch what they show from the API, with the visitor's
 * own credentials), so they cost the gateway no upstream call.
 */
export function webRoutes(assets: WebAssets) {
  return new Elysia({ name: "web-app" })
    .get("/", () => renderPage(assets, homePage), { detail: { hide: true } })
    .get(webPrefix, ({ redirect }) => redirect("/", 308), { detail: { hide: true } })
    .get(`${webPrefix}/links/:code`, () => renderPage(assets, linkPage), { detail: { hide: true } })
    .get(`${webPrefix}/admin`, () => renderPage(assets, adminPage), { detail: { hide: true } })
    .get(`${webPrefix}/geocoder`, () => renderPage(assets, geocoderPage(assets)), { detail: { hide: true } })
    .get(`${assetPrefix}*`, ({ request }) => serveAsset(assets, request), { detail: { hide: true } })
    .get(`${webPrefix}/*`, () => renderPage(assets, notFoundPage("page")), { detail: { hide: true } });
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
