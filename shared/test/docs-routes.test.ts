import { describe, expect, test } from "bun:test";
import { docsRoutes, errorRenderer, silentLogger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { Elysia } from "elysia";

const spec = {
  openapi: "3.0.3",
  info: { title: "Example API", version: "1.0.0" },
  paths: { "/things": { get: { responses: { "200": { description: "ok" } } } } },
};

/** The docs routes behind the same error renderer every service uses. */
function docs(options: { title?: string; spec?: () => unknown } = {}) {
  const app = new Elysia()
    .use(errorRenderer({ log: silentLogger }))
    .use(docsRoutes({ title: options.title ?? "Example API", spec: options.spec ?? (() => spec) }));
  // Elysia finds the path from character 11 on, so the host must be a real-looking one.
  return (path: string, headers: Record<string, string> = {}) => app.handle(new Request(new URL(path, "http://localhost").href, { headers }));
}

/** The src of every script and the href of every link in the page. */
const linksIn = (html: string) => [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);

describe("GET /docs/json", () => {
  test("is the spec source's document, asked again on every request", async () => {
    let asked = 0;
    const get = docs({
      spec: async () => {
        asked++;
        return { ...spec, info: { ...spec.info, version: String(asked) } };
      },
    });

    const first = await get("/docs/json");
    const second = await get("/docs/json");

    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(await readJson(first)).toEqual({ ...spec, info: { title: "Example API", version: "1" } });
    expect((await readJson(second)).info.version).toBe("2");
  });
});

describe("GET /docs", () => {
  test.each(["/docs", "/docs/"])("%s is Swagger UI whose every script and stylesheet is served here", async (pagePath) => {
    const get = docs();

    const response = await get(pagePath);

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:|\/\//);
    expect(html).toContain('data-spec-url="');
    const links = linksIn(html);
    expect(links).toHaveLength(4);
    const answers = await Promise.all(
      links.map(async (link) => {
        const target = new URL(link, `http://localhost${pagePath}`);
        const answer = await get(target.pathname + target.search);
        return [target.pathname, answer.status, answer.headers.get("content-type")];
      }),
    );
    expect(answers).toEqual([
      ["/docs/assets/swagger-ui.css", 200, "text/css; charset=utf-8"],
      ["/docs/assets/favicon-32x32.png", 200, "image/png"],
      ["/docs/assets/swagger-ui-bundle.js", 200, "text/javascript; charset=utf-8"],
      ["/docs/assets/docs-init.js", 200, "text/javascript; charset=utf-8"],
    ]);
    const specUrl = /data-spec-url="([^"]*)"/.exec(html)![1]!;
    expect(new URL(specUrl, `http://localhost${pagePath}`).pathname).toBe("/docs/json");
  });

  test("carries the title it was given, escaped", async () => {
    const html = await (await docs({ title: "Links & <Places>" })("/docs")).text();

    expect(html).toContain("<title>Links &amp; &lt;Places&gt;</title>");
  });

  test("the assets the page links are cached for a year; other URLs of them are checked again", async () => {
    const get = docs();
    const html = await (await get("/docs")).text();
    const bundle = linksIn(html).find((link) => link.includes("swagger-ui-bundle.js"))!;

    const linked = await get(`/${bundle}`);
    const unversioned = await get("/docs/assets/swagger-ui-bundle.js");

    expect(linked.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(unversioned.headers.get("cache-control")).toBe("no-cache");
    const packaged = await Bun.file(Bun.fileURLToPath(import.meta.resolve("swagger-ui-dist/swagger-ui-bundle.js"))).bytes();
    expect(Bun.deepEquals(await linked.bytes(), packaged)).toBe(true);
  });

  test("sends an asset gzipped to a client that accepts it", async () => {
    const get = docs();

    const plain = await get("/docs/assets/swagger-ui.css");
    const zipped = await get("/docs/assets/swagger-ui.css", { "accept-encoding": "gzip, deflate, br" });

    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    const zippedBytes = await zipped.arrayBuffer();
    const plainText = await plain.text();
    expect(zippedBytes.byteLength).toBeLessThan(plainText.length / 3);
    expect(new TextDecoder().decode(Bun.gunzipSync(zippedBytes))).toBe(plainText);
  });

  test.each(["gzip;q=0", "gzip;q=0, *", "identity, gzip;q=0.5"])("sends an asset as it is to a client whose Accept-Encoding is %p", async (acceptEncoding) => {
    const get = docs();

    const plain = await get("/docs/assets/swagger-ui.css");
    const answer = await get("/docs/assets/swagger-ui.css", { "accept-encoding": acceptEncoding });

    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(await answer.text()).toBe(await plain.text());
  });

  test.each(["/docs/assets/package.json", "/docs/assets/..%2Fpackage.json", "/docs/assets/swagger-ui-standalone-preset.js"])(
    "%s is 404 with the error body: only the page's files are served",
    async (path) => {
      const get = docs();

      const response = await get(path);

      expect(response.status).toBe(404);
      expect(await readJson(response)).toEqual({ error: { code: "not_found", message: "no such resource" } });
    },
  );
});
