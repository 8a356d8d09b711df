import { RouteNotFound } from "@linkgeo/shared";
import { Elysia } from "elysia";
import { contentTypes, DocsAssets, swaggerUiSources } from "./docs-assets.ts";
import { docsPage, docsPagePolicy, initScript, initScriptName } from "./docs-page.ts";
import { MergedSpecSource, type MergedSpecOptions } from "./merged-spec-source.ts";

export type DocsRoutesOptions = MergedSpecOptions;

/** Asset URLs carry a content hash, so a new version is a new URL and the old one may be cached for good. */
const immutable = "public, max-age=31536000, immutable";

/**
 * `GET /docs`: Swagger UI on the merged spec, every file served by the gateway
 * (no CDN, so the page renders on a network without internet).
 * `GET /docs/json`: the merged spec. `GET /docs/assets/<file>`: the UI's files.
 *
 * Resolves swagger-ui-dist when called, so a missing package stops the
 * gateway at start rather than breaking the page later.
 */
export function docsRoutes(options: DocsRoutesOptions) {
  const spec = new MergedSpecSource(options);
  const assets = new DocsAssets({ ...swaggerUiSources(), [initScriptName]: { contentType: contentTypes.js, text: initScript } });

  return new Elysia({ name: "gateway-docs" })
    .get("/docs", async ({ request }) => {
      // Elysia routes /docs/ here too; relative links must then start one level lower.
      const base = new URL(request.url).pathname.endsWith("/") ? "" : "docs/";
      const html = docsPage({
        stylesheet: `${base}assets/${await assets.href("swagger-ui.css")}`,
        icon: `${base}assets/${await assets.href("favicon-32x32.png")}`,
        bundle: `${base}assets/${await assets.href("swagger-ui-bundle.js")}`,
        init: `${base}assets/${await assets.href(initScriptName)}`,
        spec: `${base}json`,
      });
      return new Response(html, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", "content-security-policy": docsPagePolicy },
      });
    })
    .get("/docs/json", async () => {
      return new Response(JSON.stringify(await spec.current()), {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
      });
    })
    .get("/docs/assets/:file", async ({ params, query, request }) => {
      const asset = await assets.get(params.file);
      if (!asset) throw new RouteNotFound();
      const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
      const headers: Record<string, string> = {
        "content-type": asset.contentType,
        // Only the URL the page links is forever; an unversioned one must be checked again.
        "cache-control": query.v === asset.version ? immutable : "no-cache",
        "x-content-type-options": "nosniff",
        vary: "accept-encoding",
      };
      if (gzip) headers["content-encoding"] = "gzip";
      return new Response(gzip ? asset.gzipped : asset.body, { headers });
    });
}
