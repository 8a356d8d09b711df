import { beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "bun";
import { Elysia } from "elysia";
import { ownSegments } from "../../../gateway/src/routing/route-table.ts";
import { contentSecurityPolicy } from "../../src/page-shell.ts";
import { buildWebAssets, pageScripts, type WebAssets } from "../../src/web-assets.ts";
import { webPrefix, webRoutes, type RootOf } from "../../src/web-routes.ts";

describe("the web app's routes", () => {
  let assets: WebAssets;
  let app: { handle(request: Request): Promise<Response> };
  const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

  // What the shortener would say of each code a link page asks about (undefined: it could not say); the codes asked.
  const shortenerKnows = new Map<string, boolean | undefined>([
    ["abc1234", true],
    ["gone4567", false],
    ["downnow", undefined],
  ]);
  const asked: string[] = [];
  // The domain the last link page asked about (`?domain=`), by code.
  const askedDomains = new Map<string, string | undefined>();
  // What the shortener would say `/` is on each host (absent: it could not say).
  const roots = new Map<string, Awaited<ReturnType<RootOf>>>([
    ["go.brand.example", { redirect: "https://brand.example/welcome" }],
    ["bare.brand.example", "none"],
    ["localhost", "home"],
  ]);

  beforeAll(async () => {
    assets = await buildWebAssets();
    app = new Elysia().use(
      webRoutes(assets, {
        async linkIsKnown(code, { domain }) {
          asked.push(code);
          askedDomains.set(code, domain);
          return shortenerKnows.get(code);
        },
        rootOf: async (host) => roots.get(host),
        hostOf: (request) => new URL(request.url).host,
      }),
    );
  });

  test("/ is what the shortener says of its host: a domain's root URL, the home page, a 404 page, or the home page when it cannot say", async () => {
    const at = (host: string) => app.handle(new Request(`http://${host}/`, { headers: { accept: "text/html" } }));
    const redirected = await at("go.brand.example");
    expect([redirected.status, redirected.headers.get("location"), redirected.headers.get("cache-control")]).toEqual([
      302,
      "https://brand.example/welcome",
      "private, max-age=0",
    ]);
    const none = await at("bare.brand.example");
    expect([none.status, /<h1[^>]*>([^<]*)<\/h1>/.exec(await none.text())?.[1]]).toEqual([404, "Page not found"]);
    for (const host of ["localhost", "down.example"]) {
      const home = await at(host);
      expect([home.status, /<form[^>]*id="shorten-form"/.test(await home.text())]).toEqual([200, true]);
    }
  });

  test("a link's page is a 404 for a code the shortener does not know or no link could have, and served when it cannot say", async () => {
    asked.length = 0;
    const heading = async (response: Response) => /<h1[^>]*>([^<]*)<\/h1>/.exec(await response.text())?.[1];
    const known = await get("/app/links/abc1234");
    expect(known.status).toBe(200);
    const unknown = await get("/app/links/gone4567");
    expect(unknown.status).toBe(404);
    expect(await heading(unknown)).toBe("This short link does not exist");
    // The shortener down: the page is served; its script says the link could not be loaded.
    expect((await get("/app/links/downnow")).status).toBe(200);
    for (const malformed of ["/app/links/%E0%A4%A", "/app/links/%3Cb%3E", "/app/links/a.b"]) {
      const answer = await get(malformed);
      expect(answer.status).toBe(404);
      expect(await heading(answer)).toBe("This short link does not exist");
    }
    // An escaped spelling is the code it decodes to, as the shortener reads it; malformed ones were never asked about.
    expect((await get("/app/links/%61bc1234")).status).toBe(200);
    expect(asked).toEqual(["abc1234", "gone4567", "downnow", "abc1234"]);
  });

  test("a link's page on another domain asks about the link on that domain; a ?domain= no host could be is a 404 unasked", async () => {
    asked.length = 0;
    expect((await get("/app/links/abc1234?domain=go.brand.example")).status).toBe(200);
    expect(askedDomains.get("abc1234")).toBe("go.brand.example");
    expect((await get("/app/links/abc1234?domain=%3Cb%3E")).status).toBe(404);
    expect(asked).toEqual(["abc1234"]);
  });

  test("pages are HTML under a strict CSP: scripts and styles only from our own files, nothing inline", async () => {
    for (const path of ["/", "/app/links/abc1234", "/app/admin", "/app/geocoder/"]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toBe(contentSecurityPolicy);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const html = await response.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // every script has a src
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
    expect(contentSecurityPolicy).toContain("script-src 'self'");
    expect(contentSecurityPolicy).not.toContain("unsafe");
  });

  test("every file a page names is served, fingerprinted, cached for a year, gzipped on request", async () => {
    const html = await (await get("/")).text();
    const urls = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      expect(url).toMatch(/-[a-z0-9]{6,}\.(js|css|svg)$/);
      const plain = await get(url);
      expect(plain.status).toBe(200);
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(plain.headers.get("content-encoding")).toBeNull();
      const body = new Uint8Array(await plain.arrayBuffer());
      const gzipped = await get(url, { "accept-encoding": "gzip, br" });
      expect(gzipped.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(new Uint8Array(await gzipped.arrayBuffer()))).toEqual(body);
    }
    expect((await get("/app/assets/home-00000000.js")).status).toBe(404);
  });

  test.each(["gzip;q=0", "GZIP;Q=0, br", "gzip;q=0, *", "*;q=0", "identity", ""])(
    "Accept-Encoding %p gets the file as it is, not gzipped",
    async (acceptEncoding) => {
      const url = (await (await get("/")).text()).match(/src="(\/app\/assets\/[^"]+\.js)"/)![1]!;
      const plain = await get(url);
      const answer = await get(url, { "accept-encoding": acceptEncoding });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-encoding")).toBeNull();
      expect(answer.headers.get("vary")).toBe("accept-encoding");
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(new Uint8Array(await plain.arrayBuffer()));
    },
  );

  /**
   * What a first visit downloads to run each page (gzipped, chunks it
   * imports up front included): no more than when the web app became a
   * workspace of its own (issue 46's start, 6ad5884's parent line: home
   * 14,201, link 21,324, admin 16,466, geocoder 10,253 bytes), but Your
   * links, which became a list (copy, QR code, states, sort, pages: 4,841
   * then). The QR encoder is fetched when a code is first drawn, not counted.
   * The pages for people and workspaces came later: their budgets are what
   * they weighed then (10,141 and 3,370 bytes), rounded up. The admin page
   * grew by 117 bytes with issue 49: the names of two new link states and
   * the loader of the reports' queue, whose script is fetched once signed in.
   * The geocoder page grew by 497 bytes with issue 51's search by name: its
   * script is fetched when the field is first used (again after a failed
   * fetch), and the code it shares with the page moved into chunks the page
   * loads up front (their framing). It grew again, to 10,966 bytes, with
   * the CSV reader's bound on reading lines again after broken quotes
   * (shared/src/csv/csv-rows.ts), which its pasted and dropped files go
   * through.
   */
  const scriptBudgets: Record<(typeof pageScripts)[number], number> = {
    home: 14_201,
    links: 7_500,
    link: 21_324,
    workspaces: 10_500,
    invite: 3_500,
    admin: 16_600,
    geocoder: 11_000,
    "try-again": 1_024,
    theme: 1_024,
  };

  test("no page's script weighs more than its budget, gzipped, with every chunk it imports up front", () => {
    const weights = Object.fromEntries(pageScripts.map((page) => [page, assets.scriptWeight(page)]));
    for (const page of pageScripts) expect({ page, weight: weights[page] }).toEqual({ page, weight: expect.any(Number) });
    expect(pageScripts.filter((page) => !(weights[page]! > 0 && weights[page]! <= scriptBudgets[page]))).toEqual([]);
  });

  test("the QR encoder is no page's first download: a file of its own, fetched when a code is first drawn", () => {
    // A message only the encoder (uqr) has, which minifying keeps.
    const encoderText = "String contains unencodable characters in alphanumeric mode";
    const textOf = (url: string) => new TextDecoder().decode(assets.get(url)!.body);
    for (const page of ["home", "links", "link", "admin"] as const) {
      const entry = textOf(assets.scriptUrl(page));
      const upFront = [entry, ...[...entry.matchAll(/from\s*"(\/app\/assets\/[^"]+)"/g)].map((m) => textOf(m[1]!))];
      const later = [...entry.matchAll(/import\("(\/app\/assets\/[^"]+)"\)/g)].map((m) => textOf(m[1]!));
      expect({ page, upFront: upFront.some((text) => text.includes(encoderText)), later: later.some((text) => text.includes(encoderText)) }).toEqual({
        page,
        upFront: false,
        later: true,
      });
    }
  });

  test("an unknown page under the prefix is a 404 page in the same look; the bare prefix goes home", async () => {
    const unknown = await get("/app/nothing/here");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Page not found");
    const bare = await get(webPrefix);
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/");
  });

  test("the gateway keeps the prefix for itself: it is one of the segments never sent upstream", () => {
    expect(ownSegments.has(webPrefix.slice(1))).toBe(true);
  });
});
