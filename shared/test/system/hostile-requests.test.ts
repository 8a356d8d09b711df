import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawRequest, startService, type RawResponse, type ServiceProcess } from "@linkgeo/testing";

/**
 * Garbage on raw sockets at each of the three services, run as real
 * processes with their access logs on (the hook that used to throw after the
 * response and end the process). fetch cannot send most of these: an empty
 * Host, authority-form and asterisk-form targets, CONNECT, broken request
 * lines. After every batch each process must still be running and answer.
 */

const methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"];

/** Request targets of every form RFC 9112 §3.2 knows, and some it does not. */
const targets = [
  "/health",
  "/shorten/",
  "x",
  "a:@127.0.0.1:{canary}\\internal\\admin?x=1",
  "127.0.0.1:{canary}",
  "localhost:{canary}",
  "http://127.0.0.1:{canary}/internal",
  "//127.0.0.1:{canary}/internal",
  "*",
  "/%2e%2e/%2e%2e/etc/passwd",
  "/\\\\127.0.0.1:{canary}",
  "/a?b=%00%ff",
  "/reverse-geocode/jobs/%ff%00/results?format=%00",
];

/** Host header lines; undefined: none at all. */
const hosts = [
  undefined,
  "Host:",
  "Host: x:99999",
  "Host: [::1",
  "Host: a b",
  "Host: @127.0.0.1:{canary}",
  "Host: 127.0.0.1:{canary}",
  `Host: ${"h".repeat(5000)}`,
];

/** Whole messages that are not HTTP, or barely. */
const broken = [
  "\r\n\r\n",
  "GET\r\n\r\n",
  "GET / HTTP/9.9\r\nHost: h\r\n\r\n",
  "GET / FOO\r\nHost: h\r\n\r\n",
  "\x00\x01\x02\x03\xff\xfe\r\n\r\n",
  "GET / HTTP/1.1\r\nHost: h\r\nno colon here\r\n\r\n",
  "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
  "POST /shorten/ HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  "GET / HTTP/1.1\r\nHost: h\r\nX-Forwarded-Host: a b\r\nX-Forwarded-Proto: \x7f\r\n\r\n",
  `GET /${"a".repeat(70_000)} HTTP/1.1\r\nHost: h\r\n\r\n`,
  "GET /health HTTP/1.0\r\nHost:\r\n\r\n",
];

describe("hostile requests on raw sockets", () => {
  const stack = new AsyncDisposableStack();
  const services: ServiceProcess[] = [];
  /** A server no request may ever reach: the SSRF targets above name it. */
  let canaryHits = 0;
  let canary: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    canary = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => {
        canaryHits++;
        return new Response("internal admin");
      },
    });
    stack.defer(() => canary.stop(true));
    // Access logs on, in both formats: the hooks that used to throw.
    const logs = { ACCESS_LOG: "true", LOG_LEVEL: "info" };
    const echo = (line: string) => /error|exception|uncaught/i.test(line);
    const shortener = stack.use(await startService("shortener", { ...logs, DATABASE_URL: "sqlite:///:memory:", LOG_FORMAT: "json" }, { echo }));
    const geocoder = stack.use(await startService("geocoder", { ...logs, GEOCODER_CACHE_PATH: ":memory:" }, { echo }));
    const gateway = stack.use(
      await startService(
        "gateway",
        { ...logs, SHORTENER_URL: shortener.url, GEOCODER_URL: geocoder.url, RATE_LIMIT_API: "off", RATE_LIMIT_CREATE: "off" },
        { echo },
      ),
    );
    services.push(gateway, shortener, geocoder);
  });

  afterAll(async () => {
    await stack.disposeAsync();
  });

  const fill = (text: string) => text.replaceAll("{canary}", String(canary.port));

  /** Every service is still running and answers /health. */
  async function expectAllAlive(): Promise<void> {
    for (const service of services) {
      const exited = await Promise.race([service.exited, Bun.sleep(0).then(() => undefined)]);
      expect(exited, `${service.name} exited; it printed:\n${service.output()}`).toBeUndefined();
      const health = await fetch(`${service.url}/health`);
      expect(health.status).toBe(200);
    }
  }

  function expectNoServerError(service: ServiceProcess, request: string, response: RawResponse): void {
    // 505 is Bun's parser refusing an HTTP version, before any of our code runs.
    if (response.status !== undefined && response.status >= 500 && response.status !== 505) {
      throw new Error(`${service.name} answered ${response.status} to ${JSON.stringify(request.slice(0, 200))}:\n${response.head}\n\n${response.body}`);
    }
  }

  /** Each raw request answered with one of its expected statuses, and never a 5xx. */
  async function expectStatuses(service: ServiceProcess, cases: ReadonlyArray<[string, number[]]>): Promise<void> {
    for (const [request, expected] of cases) {
      const response = await rawRequest(service.port, request);
      expectNoServerError(service, request, response);
      expect({ request: request.slice(0, 120), status: expected.includes(response.status ?? 0) ? "expected" : response.status }).toEqual({
        request: request.slice(0, 120),
        status: "expected",
      });
    }
  }

  test.each(["gateway", "shortener", "geocoder"])("%s: every method with every target and odd Host lives through them all", async (name) => {
    const service = services.find((s) => s.service === name)!;
    for (const method of methods) {
      for (const target of targets) {
        for (const host of hosts) {
          const request = fill(`${method} ${target} HTTP/1.1\r\n${host === undefined ? "" : `${host}\r\n`}Connection: close\r\n\r\n`);
          expectNoServerError(service, request, await rawRequest(service.port, request));
        }
      }
    }
    await expectAllAlive();
  });

  test.each(["gateway", "shortener", "geocoder"])("%s: broken messages end the connection, not the process", async (name) => {
    const service = services.find((s) => s.service === name)!;
    for (const message of broken) expectNoServerError(service, message, await rawRequest(service.port, fill(message)));
    await expectAllAlive();
  });

  test.each(["gateway", "shortener", "geocoder"])("%s: a request without a usable Host or target is a 400", async (name) => {
    const service = services.find((s) => s.service === name)!;
    for (const request of [
      "GET /health HTTP/1.0\r\nHost:\r\n\r\n",
      "GET /health HTTP/1.0\r\n\r\n",
      "GET /health HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n",
      "GET /health HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n",
      "GET /health HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
    ]) {
      const response = await rawRequest(service.port, request);
      expect({ request, status: response.status }).toEqual({ request, status: 400 });
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: "invalid_request" } });
    }
    await expectAllAlive();
  });

  test.each(["gateway", "shortener", "geocoder"])("%s: CONNECT and TRACE are refused, whatever the target", async (name) => {
    const service = services.find((s) => s.service === name)!;
    for (const method of ["CONNECT", "TRACE"]) {
      for (const target of ["x", "127.0.0.1:{canary}", "/health", "a:@127.0.0.1:{canary}\\internal\\admin?x=1"]) {
        const request = fill(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        const response = await rawRequest(service.port, request);
        // Bun's own parser answers some of them 400 before any of our code runs.
        expect({ request, refused: [400, 405].includes(response.status ?? 0) }).toEqual({ request, refused: true });
      }
    }
    for (const request of ["CONNECT x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "TRACE /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"]) {
      const response = await rawRequest(service.port, request);
      expect({ status: response.status, allow: response.headers.allow }).toEqual({ status: 405, allow: "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH" });
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: "method_not_allowed" } });
    }
  });

  test.each(["gateway", "geocoder"])("%s: hostile geocoding batches are refused whole or per point, never a 5xx, and the process lives", async (name) => {
    const service = services.find((s) => s.service === name)!;
    const post = (target: string, headers: string, body: string) =>
      `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Connection: close\r\n\r\n${body}`;
    const withLength = (body: string, target = "/reverse-geocode/batch") => post(target, `Content-Length: ${Buffer.byteLength(body)}\r\n`, body);
    const cases: Array<[string, number[]]> = [
      // Declared past the 512 KiB limit: refused before a byte of it is read.
      [post("/reverse-geocode/batch", "Content-Length: 900000\r\n", '{"points":['), [413]],
      // (Broken chunked framing is Bun's parser's to refuse: the "broken messages" test above.)
      [withLength("{not json"), [400]],
      [withLength('{"points":"all of them"}'), [400]],
      [withLength('{"points":[{"latitude":1e999,"longitude":NaN}]}'), [400]],
      [withLength(JSON.stringify({ points: Array.from({ length: 1_001 }, () => ({ latitude: 1, longitude: 2 })) })), [400]],
      [withLength('{"points":[{"latitude":{"__proto__":{"polluted":1}},"longitude":[]},{"latitude":"48.2","longitude":"16.37"}]}'), [200]],
      [withLength('{"points":[{"latitude":1,"longitude":2}]}', "/reverse-geocode/batch?format=%ff%fe"), [400]],
      [withLength('{"points":[{"latitude":1,"longitude":2,"id":{"nested":true}}]}'), [400]],
    ];
    await expectStatuses(service, cases);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectAllAlive();
  });

  test.each(["gateway", "geocoder"])(
    "%s: hostile geocoding jobs on the wire are refused whole or per point, never a 5xx, and the process lives",
    async (name) => {
      const service = services.find((s) => s.service === name)!;
      const post = (type: string, headers: string, body: string, target = "/reverse-geocode/jobs") =>
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\n${headers}Connection: close\r\n\r\n${body}`;
      const withLength = (type: string, body: string, target?: string) => post(type, `Content-Length: ${Buffer.byteLength(body)}\r\n`, body, target);
      const cases: Array<[string, number[]]> = [
        // Declared past the 16 MiB limit: refused before a byte of it is read.
        [post("text/csv", "Content-Length: 900000000\r\n", "latitude,longitude\n"), [413]],
        [withLength("application/json", "{not json"), [400]],
        [withLength("application/json", '{"points":{"0":{"latitude":1,"longitude":2}}}'), [400]],
        [withLength("application/json", '{"points":[{"latitude":{"__proto__":{"polluted":1}},"longitude":[]}]}'), [202]],
        [withLength("text/plain", '{"latitude":1e999,"longitude":NaN}\n{"latitude":"48.2","longitude":"16.37"}\n'), [202]],
        [withLength("text/csv", 'latitude,longitude\n"48.2,16.37\n'), [202]],
        [withLength("text/csv", "\xff\xfe\x00\x00"), [415]],
        [withLength("application/x-ndjson", "x\n".repeat(200_000)), [400]],
        // A file's platform is in the query; a JSON body's in the body (the query's is not read then).
        [withLength("text/csv", "latitude,longitude\n1,2\n", "/reverse-geocode/jobs?platform=%ff%fe&language=%00"), [400]],
        [`GET /reverse-geocode/jobs/${"%00".repeat(40)}/results?format=%ff HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`, [400, 404]],
        [`DELETE /reverse-geocode/jobs/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`, [404]],
        [`GET /reverse-geocode/jobs/${"a".repeat(4000)} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`, [404]],
        // Forward jobs: the same reader and limits, a query's own fields checked per query.
        [post("text/csv", "Content-Length: 900000000\r\n", "q\n", "/geocode/jobs"), [413]],
        [withLength("application/json", '{"queries":"Paris"}', "/geocode/jobs"), [400]],
        [
          withLength(
            "application/json",
            '{"queries":[{"q":{"__proto__":{"polluted":1}},"limit":1e999,"country":[["x"]],"near":{},"bbox":[]}]}',
            "/geocode/jobs",
          ),
          [202],
        ],
        [withLength("application/x-ndjson", '{"q":"Paris","refused":{"toString":1}}\n[]\n', "/geocode/jobs"), [202]],
        [withLength("text/csv", 'q\n"Paris\n', "/geocode/jobs"), [202]],
        [withLength("text/csv", "q\nParis\n", "/geocode/jobs?country=%ff&limit=99"), [400]],
        [withLength("application/json", '{"queries":[{"q":"Paris"}]}', "/geocode/jobs?country=fr"), [400]],
        [`GET /geocode/jobs/${"%00".repeat(40)}/results?format=%ff HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`, [400, 404]],
      ];
      await expectStatuses(service, cases);
      // 17 MiB streamed with no length to refuse it by (chunked: fetch expresses it, where a raw socket's write
      // blocks once the server stops reading): read until it passes 16 MiB, then refused.
      const rows = new TextEncoder().encode("48.1,2.1\n".repeat(1_000));
      let sent = 0;
      const streamed = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > 17 * 1024 * 1024) return controller.close();
          controller.enqueue(sent === 0 ? new TextEncoder().encode("latitude,longitude\n") : rows);
          sent += rows.byteLength;
        },
      });
      const init = { method: "POST", headers: { "content-type": "text/csv" }, body: streamed, duplex: "half" };
      expect((await fetch(`${service.url}/reverse-geocode/jobs`, init as RequestInit)).status).toBe(413);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await expectAllAlive();
    },
  );

  test.each(["gateway", "shortener"])(
    "%s: hostile visitor headers on a redirect are counted as some visitor, and the visits report stays in step",
    async (name) => {
      const shortener = services.find((s) => s.service === "shortener")!;
      const service = services.find((s) => s.service === name)!;
      const created = await fetch(`${shortener.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: "https://example.com/hostile-visitors" }),
      });
      const link = (await created.json()) as { short_url: string; manage_token: string };
      const headerLines = [
        `User-Agent: ${"Mozilla/5.0 ".repeat(6000)}`,
        "User-Agent: \x80\xff\xfe obs-text",
        "Referer: javascript:alert(1)",
        "Referer: http://[::1",
        `Referer: https://${"a".repeat(300)}.example/`,
        "Referer: https://evil.example\\@other.example/",
        "X-Forwarded-For: 999.1.1.1, garbage, ::ffff:1.2.3.4:99",
        `X-Forwarded-For: ${Array.from({ length: 3000 }, (_, i) => `10.0.${i % 250}.${i % 200}`).join(", ")}`,
        "X-Forwarded-For: 131.111.8.46\r\nUser-Agent: smuggled",
      ];
      let redirected = 0;
      for (const line of headerLines) {
        const response = await rawRequest(service.port, `GET /${link.short_url}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n${line}\r\nConnection: close\r\n\r\n`);
        expectNoServerError(service, line, response);
        if (response.status === 302) redirected++;
      }
      // Bun refuses the smuggling attempt and perhaps the oversized header; the rest are redirects.
      expect(redirected).toBeGreaterThanOrEqual(headerLines.length - 2);
      // From/to/granularity a client chose, as a raw target: 400s, never worse.
      for (const query of ["from=%00", `from=${"9".repeat(60_000)}`, "to=2026-13-45", "granularity=%ff%fe", "from=0001-01-01&to=9999-12-31"]) {
        const response = await rawRequest(
          service.port,
          `GET /shorten/${link.short_url}/visits/?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${link.manage_token}\r\nConnection: close\r\n\r\n`,
        );
        expectNoServerError(service, query, response);
      }
      await expectAllAlive();

      const report = (await (
        await fetch(`${shortener.url}/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } })
      ).json()) as {
        totals: { visits: number };
        top: Record<string, Array<{ value: string; visits: number }>>;
      };
      const stats = (await (await fetch(`${shortener.url}/shorten/${link.short_url}/stats/`)).json()) as { access_count: number };
      expect(report.totals.visits).toBe(stats.access_count);
      expect(stats.access_count).toBe(redirected);
      for (const entries of Object.values(report.top)) {
        expect(entries.reduce((sum, entry) => sum + entry.visits, 0)).toBe(redirected);
        for (const entry of entries) expect(entry.value).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]{0,251}[\x21-\x7e])?$/);
      }
    },
  );

  test.each(["gateway", "shortener"])("%s: the bodies of the link options' and keys' routes, broken on the wire, are 4xx", async (name) => {
    const service = services.find((s) => s.service === name)!;
    const form = "Content-Type: application/x-www-form-urlencoded";
    const messages = [
      // A protected link's unlock form (POST /<code>).
      `POST /SomeCode1/ HTTP/1.1\r\nHost: h\r\n${form}\r\nContent-Length: 9\r\nConnection: close\r\n\r\npassword=`,
      `POST /SomeCode1 HTTP/1.1\r\nHost: h\r\n${form}\r\nContent-Length: 2000000000\r\nConnection: close\r\n\r\npassword=x`,
      `POST /SomeCode1 HTTP/1.1\r\nHost: h\r\n${form}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\npassword=x\r\n0\r\n\r\n`,
      `POST /SomeCode1 HTTP/1.1\r\nHost: h\r\n${form}\r\nContent-Length: 12\r\nConnection: close\r\n\r\n\x00\xff%zz=%%&&=`,
      `POST /SomeCode1 HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{"password":[{}]}`,
      // A bulk create, an import, an API key: broken, oversized, binary, made up.
      "POST /shorten/bulk/ HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{[,",
      "POST /shorten/bulk/ HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 900000000\r\nConnection: close\r\n\r\n{}",
      "POST /admin/import HTTP/1.1\r\nHost: h\r\nContent-Type: text/csv\r\nContent-Length: 2147483648\r\nConnection: close\r\n\r\nlong_url",
      "POST /admin/import HTTP/1.1\r\nHost: h\r\nContent-Type: text/csv\r\nContent-Length: 8\r\nConnection: close\r\n\r\n\x00\x01\x02\xff\xfe\x00\x00\x00",
      `GET /shorten/ HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer lgk_${"\xff".repeat(50)}\r\nConnection: close\r\n\r\n`,
      `DELETE /admin/api-keys/${"%00".repeat(40)} HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer lgk_x\r\nConnection: close\r\n\r\n`,
      // Many links' stats at once: broken, oversized, out of shape; a link page's code, malformed.
      "POST /shorten/stats/ HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{[,",
      "POST /shorten/stats/ HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 900000000\r\nConnection: close\r\n\r\n{}",
      statsRequest(`{"short_urls":[${'{"a":[[[[[]]]]]},'.repeat(3)}"\\u0000"]}`),
      statsRequest(`{"short_urls":[${'"%2e%2e%2f",'.repeat(499)}"${"z".repeat(65)}"]}`),
      "GET /app/links/%E0%A4%A HTTP/1.1\r\nHost: h\r\nAccept: text/html\r\nConnection: close\r\n\r\n",
      `GET /app/links/${"%00".repeat(40)} HTTP/1.1\r\nHost: h\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
    ];
    for (const message of messages) {
      const response = await rawRequest(service.port, message);
      expectNoServerError(service, message, response);
    }
    await expectAllAlive();
  });

  test("no process logged an uncaught error, and no request reached an address a client named", () => {
    for (const service of services) expect(service.output()).not.toMatch(/uncaught exception|unhandled promise rejection|unhandled error/);
    expect(canaryHits).toBe(0);
  });
});

/** A raw POST /shorten/stats/ with this JSON body, its length counted in bytes. */
function statsRequest(json: string): string {
  return `POST /shorten/stats/ HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`;
}
