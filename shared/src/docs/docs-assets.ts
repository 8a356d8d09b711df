import { fileURLToPath } from "node:url";

/** One file the docs page loads, held in memory with its gzip form. */
export interface DocsAsset {
  contentType: string;
  body: Uint8Array;
  gzipped: Uint8Array;
  /** Short content hash: the `?v=` that lets browsers cache the file for a year. */
  version: string;
}

/** Where a page asset's bytes come from: a file a package ships, or text made here (the init script). */
export type AssetSource = { contentType: string; file: string } | { contentType: string; text: string };

export const contentTypes = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  png: "image/png",
} as const;

/**
 * The Swagger UI files the page needs, found through the package's own
 * location rather than the working directory, so it works from any cwd and in
 * a Docker image. The standalone preset is left out: it only adds the top bar
 * for typing in another spec's URL, which this page does not want.
 */
export function swaggerUiSources(): Record<string, AssetSource> {
  const packageJson = import.meta.resolve("swagger-ui-dist/package.json");
  const file = (name: string) => fileURLToPath(new URL(name, packageJson));
  return {
    "swagger-ui-bundle.js": { contentType: contentTypes.js, file: file("swagger-ui-bundle.js") },
    "swagger-ui.css": { contentType: contentTypes.css, file: file("swagger-ui.css") },
    "favicon-32x32.png": { contentType: contentTypes.png, file: file("favicon-32x32.png") },
  };
}

/**
 * The page's files by name. Only the names given exist, so a request for
 * `../package.json` finds nothing. Files are read and gzipped once, on first
 * use, since the bundle is 1.7 MB (about 450 KB gzipped).
 */
export class DocsAssets {
  private loaded: Promise<Map<string, DocsAsset>> | undefined;

  constructor(private readonly sources: Record<string, AssetSource>) {}

  async get(name: string): Promise<DocsAsset | undefined> {
    return Object.hasOwn(this.sources, name) ? (await this.load()).get(name) : undefined;
  }

  /** The asset's name with its version query, as the page links it. */
  async href(name: string): Promise<string> {
    const asset = await this.get(name);
    if (!asset) throw new Error(`no docs asset named ${name}`);
    return `${name}?v=${asset.version}`;
  }

  private load(): Promise<Map<string, DocsAsset>> {
    this.loaded ??= Promise.all(
      Object.entries(this.sources).map(async ([name, source]) => {
        const body = "text" in source ? new TextEncoder().encode(source.text) : await Bun.file(source.file).bytes();
        const asset: DocsAsset = {
          contentType: source.contentType,
          body,
          gzipped: Bun.gzipSync(body),
          version: Bun.hash(body).toString(16).padStart(16, "0").slice(0, 12),
        };
        return [name, asset] as const;
      }),
    ).then((entries) => new Map(entries));
    return this.loaded;
  }
}
