import { readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { gzipSync } from "bun";

/** Where the fingerprinted files are served; also the public path the bundler writes into imports. */
export const assetPrefix = "/app/assets/";

/** The browser entry points, one per page and "theme" on every page, and the one stylesheet (in client/). */
export const pageScripts = ["home", "links", "link", "workspaces", "invite", "admin", "geocoder", "try-again", "theme"] as const;
export type PageScript = (typeof pageScripts)[number];

/** Files served as they are (in assets/), fingerprinted like the bundles. */
const staticFiles = ["icon.svg", "world-map.svg"] as const;
export type StaticFile = (typeof staticFiles)[number];

const clientDir = join(import.meta.dir, "client");
const staticDir = join(import.meta.dir, "assets");

export interface WebAsset {
  body: Uint8Array;
  /** The same bytes gzipped, for clients that accept it. */
  gzipped: Uint8Array;
  type: string;
}

export interface WebAssets {
  /** The fingerprinted URL of a page's script, of the stylesheet or of a static file. */
  scriptUrl(page: PageScript): string;
  readonly stylesheetUrl: string;
  staticUrl(file: StaticFile): string;
  /** The asset served at `path` (`/app/assets/home-1a2b3c4d.js`), if any. */
  get(path: string): WebAsset | undefined;
  /** Bytes a browser downloads (gzipped) to run a page's script: the entry and every chunk it imports up front (not those it fetches when needed). */
  scriptWeight(page: PageScript): number;
}

/**
 * Bundles the browser code with Bun's own bundler, minified, each page's
 * script on its own (one file a first visit downloads, smaller gzipped than
 * the same code cut into chunks shared between pages), only what a page
 * fetches when it needs it (the QR encoder) split off. Every file is
 * fingerprinted by its content, so each can be cached for a year. Run once at
 * start: it takes tens of milliseconds, and the image then needs no build
 * step and no files written at run time.
 */
export async function buildWebAssets(): Promise<WebAssets> {
  const entries = [...pageScripts.map((page) => join(clientDir, `${page}.ts`)), join(clientDir, "style.css")];
  const builds = await Promise.all(
    entries.map((entry) =>
      Bun.build({
        entrypoints: [entry],
        target: "browser",
        minify: true,
        splitting: true,
        sourcemap: "none",
        naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
        publicPath: assetPrefix,
      }),
    ),
  );
  const failed = builds.flatMap((build) => (build.success ? [] : build.logs));
  if (failed.length > 0) throw new AggregateError(failed, "the web app's browser code does not build");

  const files = new Map<string, WebAsset>();
  const entryUrls = new Map<string, string>();
  const imports = new Map<string, string[]>();
  // The same chunk out of two pages' builds is the same file: named by its content, kept once.
  for (const output of builds.flatMap((build) => build.outputs)) {
    const name = basename(output.path);
    const url = assetPrefix + name;
    if (files.has(url)) continue;
    const text = await output.text();
    const body = new TextEncoder().encode(text);
    files.set(url, { body, gzipped: gzipSync(body), type: output.type });
    if (output.kind === "entry-point" || name.endsWith(".css")) entryUrls.set(name.replace(/-[a-z0-9]+\.(js|css)$/, ".$1"), url);
    imports.set(
      url,
      [...text.matchAll(/from\s*"(\/app\/assets\/[^"]+)"|import\s*"(\/app\/assets\/[^"]+)"/g)].map((m) => (m[1] ?? m[2])!),
    );
  }

  const staticUrls = new Map<string, string>();
  for (const file of staticFiles) {
    const body = readFileSync(join(staticDir, file));
    const hash = Bun.hash(body).toString(36).slice(0, 8);
    const url = `${assetPrefix}${file.replace(/(\.[a-z]+)$/, `-${hash}$1`)}`;
    files.set(url, { body, gzipped: gzipSync(body), type: contentTypes[extname(file)] ?? "application/octet-stream" });
    staticUrls.set(file, url);
  }

  const urlOf = (name: string) => {
    const url = entryUrls.get(name) ?? staticUrls.get(name);
    if (!url) throw new Error(`the web build has no ${name}`);
    return url;
  };
  const weight = (url: string, seen: Set<string>): number => {
    if (seen.has(url)) return 0;
    seen.add(url);
    return (files.get(url)?.gzipped.length ?? 0) + (imports.get(url) ?? []).reduce((sum, next) => sum + weight(next, seen), 0);
  };

  return {
    scriptUrl: (page) => urlOf(`${page}.js`),
    stylesheetUrl: urlOf("style.css"),
    staticUrl: (file) => urlOf(file),
    get: (path) => files.get(path),
    scriptWeight: (page) => weight(urlOf(`${page}.js`), new Set()),
  };
}

const contentTypes: Record<string, string> = {
  ".svg": "image/svg+xml",
};
