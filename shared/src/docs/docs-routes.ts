import { Elysia } from "elysia";
import { storedCodingFor } from "../http/accept-encoding.ts";
import { RouteNotFound } from "../http/http-error.ts";
import { contentTypes, DocsAssets, swaggerUiSources } from "./docs-assets.ts";
import { docsPage, docsPagePolicy, initScript, initScriptName, type DocsPageContent } from "./docs-page.ts";

export interface DocsRoutesOptions {
  /** The page's title in the browser tab. */
  title: string;
  /** The OpenAPI document served at /docs/json, asked for on every request (the source caches if it needs to). */
  spec: () => unknown | Promise<unknown>;
  /**
   * The page around Swagger UI, when it is not the plain one (`docsPage`):
   * the gateway's is the web app's, with its header and colours. It must
   * load `content`'s files and keep `docsPagePolicy`'s allowances.
   */
  page?: (content: DocsPageContent) => Response;
}

/** Asset URLs carry a content hash, so a new version is a new URL and the old one may be cached for good. */
const immutable = "public, max-age=31536000, immutable";

/** Not operations of the API: the spec a service generates from its routes leaves them out. */
const hidden = { detail: { hide: true } };

/**
 * `GET /docs` (and `/docs/`): Swagger UI on `spec`, every file served from
 * here (no CDN, so the page renders on a network without internet).
 * `GET /docs/json`: the spec. `GET /docs/assets/<file>`: the UI's files.
 * The gateway mounts it on its merged spec, each service on its own.
 *
 * Resolves swagger-ui-dist when called, so a missing package stops the
 * process at start rather than breaking the page later.
 */
export function docsRoutes(options: DocsRoutesOptions) {
  const assets = new DocsAssets({ ...swaggerUiSources(), [initScriptName]: { contentType: contentTypes.js, text: initScript } });

  // The seed keeps two pages in one process apart (Elysia deduplicates plugins by name and seed).
  return new Elysia({ name: "docs-routes", seed: options.title })
    .get(
      "/docs",
      async ({ request }) => {
        // Elysia routes /docs/ here too; relative links must then start one level lower.
        const base = new URL(request.url).pathname.endsWith("/") ? "" : "docs/";
        const content: DocsPageContent = {
          title: options.title,
          stylesheet: `${base}assets/${await assets.href("swagger-ui.css")}`,
          icon: `${base}assets/${await assets.href("favicon-32x32.png")}`,
          bundle: `${base}assets/${await assets.href("swagger-ui-bundle.js")}`,
          init: `${base}assets/${await assets.href(initScriptName)}`,
          spec: `${base}json`,
        };
        if (options.page) return options.page(content);
        return new Response(docsPage(content), {
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", "content-security-policy": docsPagePolicy },
        });
      },
      hidden,
    )
    .get(
      "/docs/json",
      async () => {
        return new Response(JSON.stringify(await options.spec()), {
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
        });
      },
      hidden,
    )
    .get(
      "/docs/assets/:file",
      async ({ params, query, request }) => {
        const asset = await assets.get(params.file);
        if (!asset) throw RouteNotFound.here();
        const gzip = storedCodingFor(request.headers.get("accept-encoding")) === "gzip";
        const headers: Record<string, string> = {
          "content-type": asset.contentType,
          // Only the URL the page links is forever; an unversioned one must be checked again.
          "cache-control": query.v === asset.version ? immutable : "no-cache",
          "x-content-type-options": "nosniff",
          vary: "accept-encoding",
        };
        if (gzip) headers["content-encoding"] = "gzip";
        return new Response(gzip ? asset.gzipped : asset.body, { headers });
      },
      hidden,
    );
}
