import { describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { createLogger, silentLogger } from "@linkgeo/shared";
import { freePort, readJson, waitFor } from "@linkgeo/testing";
import { proxyRequest, upstreamUrl, type ProxyOptions } from "../src/proxy/proxy-request.ts";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { gate, startFakeUpstream, startRawUpstream } from "./support/fake-upstream.ts";
import { startTestGateway } from "./support/test-gateway.ts";

function poolOf(origins: string[], log = silentLogger) {
  return new UpstreamPool({ name: "shortener", urls: origins, refreshMs: 60_000, log });
}

/** An origin nothing listens on: connecting to it is refused. */
async function deadOrigin() {
  return `http://127.0.0.1:${await freePort()}`;
}

/** Calls the proxy directly, as the app does once it has read the body. */
function proxy(request: Request, pool: UpstreamPool, options: Partial<ProxyOptions> = {}) {
  return proxyRequest(request, {
    pool,
    upstream: "shortener",
    body: null,
    clientAddress: "203.0.113.9",
    viaTrustedProxy: false,
    requestId: "req-1",
    timeoutMs: 5_000,
    ...options,
  });
}

const unreachable = { error: { code: "upstream_unavailable", message: "the shortener service could not be reached, try again shortly" } };

describe("proxying a request", () => {
  test("sends method, path, query, body and end-to-end headers to the upstream unchanged", async () => {
    await using upstream = startFakeUpstream(() => new Response(null, { status: 204 }));
    const body = JSON.stringify({ long_url: "https://example.com/a?b=c" });
    const request = new Request("https://sho.rt/shorten/Ab3dE9x/?page=2&q=a%20b", {
      method: "PUT",
      headers: {
        host: "sho.rt",
        accept: "application/json",
        authorization: "Bearer manage-token",
        "content-type": "application/json",
        "content-length": "999",
        "user-agent": "test-client/1.0",
        // The visit's facts for the shortener's analytics travel as the client sent them.
        referer: "https://news.example/item?id=1",
        "x-custom": "kept",
        // Hop-by-hop: about the client's connection to the gateway only.
        connection: "keep-alive, X-Connection-Only",
        "x-connection-only": "dropped",
        "keep-alive": "timeout=5",
        "proxy-authorization": "Basic c2VjcmV0",
        "proxy-connection": "keep-alive",
        te: "trailers",
        trailer: "x-checksum",
        "transfer-encoding": "chunked",
        upgrade: "websocket",
      },
    });

    const response = await proxy(request, poolOf([upstream.origin]), { body: new TextEncoder().encode(body).buffer });

    expect(response.status).toBe(204);
    expect(upstream.requests).toEqual([
      {
        method: "PUT",
        path: "/shorten/Ab3dE9x/?page=2&q=a%20b",
        headers: {
          accept: "application/json",
          "accept-encoding": "identity",
          authorization: "Bearer manage-token",
          // Bun's own, for its pooled connection to the upstream.
          connection: "keep-alive",
          "content-length": String(body.length),
          "content-type": "application/json",
          host: upstream.origin.slice("http://".length),
          referer: "https://news.example/item?id=1",
          "user-agent": "test-client/1.0",
          "x-custom": "kept",
          "x-forwarded-for": "203.0.113.9",
          "x-forwarded-host": "sho.rt",
          "x-forwarded-proto": "https",
          "x-request-id": "req-1",
        },
        body,
      },
    ]);
  });

  describe("forwarding headers", () => {
    const forged = {
      "x-forwarded-for": "198.51.100.1, 198.51.100.2",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example",
      "x-forwarded-port": "443",
      "x-real-ip": "198.51.100.3",
      forwarded: "for=198.51.100.4;host=evil.example",
    };
    const forwardingHeaders = (headers: Record<string, string> | undefined) =>
      Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => /^(x-forwarded-|x-real-ip$|forwarded$)/.test(name)));

    test("from a client that is no trusted proxy, its own are dropped and the gateway's sent", async () => {
      await using upstream = startFakeUpstream();
      const request = new Request("http://gateway:8080/Ab3dE9x/", { headers: { host: "gateway:8080", ...forged } });

      await proxy(request, poolOf([upstream.origin]), { viaTrustedProxy: false });

      expect(forwardingHeaders(upstream.requests[0]?.headers)).toEqual({
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "http",
        "x-forwarded-host": "gateway:8080",
      });
    });

    test("from a trusted proxy, its proto and host are kept and the client is the address worked out", async () => {
      await using upstream = startFakeUpstream();
      const request = new Request("http://gateway:8080/Ab3dE9x/", {
        headers: { host: "gateway:8080", ...forged, "x-forwarded-host": "Sho.rt, inner.example" },
      });

      await proxy(request, poolOf([upstream.origin]), { viaTrustedProxy: true });

      expect(forwardingHeaders(upstream.requests[0]?.headers)).toEqual({
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "sho.rt",
      });
    });

    test.each([
      ["a host with a path", { "x-forwarded-host": "evil.example/x" }],
      ["a host with a user", { "x-forwarded-host": "a@evil.example" }],
      ["a port out of range", { "x-forwarded-host": "sho.rt:99999" }],
      ["a proto that is not http(s)", { "x-forwarded-proto": "javascript" }],
    ])("from a trusted proxy, %s is replaced by the request's own", async (_, headers) => {
      await using upstream = startFakeUpstream();
      const request = new Request("http://gateway:8080/Ab3dE9x/", { headers: { host: "gateway:8080", ...headers } });

      await proxy(request, poolOf([upstream.origin]), { viaTrustedProxy: true });

      expect(forwardingHeaders(upstream.requests[0]?.headers)).toEqual({
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "http",
        "x-forwarded-host": "gateway:8080",
      });
    });

    test.each([
      [true, "sho.rt"],
      [false, "gateway:8080"],
    ])("naming them in Connection cannot strip them (trusted proxy: %p)", async (viaTrustedProxy, host) => {
      await using upstream = startFakeUpstream();
      const request = new Request("http://gateway:8080/Ab3dE9x/", {
        headers: { host: "gateway:8080", connection: "X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-For", "x-forwarded-host": "sho.rt" },
      });

      await proxy(request, poolOf([upstream.origin]), { viaTrustedProxy });

      // Without X-Forwarded-Host the shortener would build links on the replica's internal address.
      // A header named in Connection is meant for the gateway: a trusted proxy's is still believed.
      expect(forwardingHeaders(upstream.requests[0]?.headers)).toEqual({
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "http",
        "x-forwarded-host": host,
      });
    });
  });

  describe("credentials", () => {
    const credentialed = () =>
      new Request("http://sho.rt/reverse-geocode?latitude=1&longitude=2", {
        headers: {
          authorization: "Bearer admin.token",
          cookie:
            'other_app=secret; linkgeo_admin=junk; __Host-linkgeo_admin=host-session; theme=dark; linkgeo_admin="real-session"; __Host-other=x; ' +
            "linkgeo_person=lgs_person; __Host-linkgeo_person=lgs_host_person",
          "x-csrf-token": "csrf-of-the-session",
          "x-custom": "kept",
        },
      });
    const seenBy = async (upstream: "shortener" | "geocoder") => {
      await using fake = startFakeUpstream();
      await proxy(credentialed(), poolOf([fake.origin]), { upstream });
      const { authorization, cookie, "x-csrf-token": csrf, "x-custom": custom } = fake.requests[0]!.headers;
      return { authorization, cookie, csrf, custom };
    };

    test("the geocoder gets none of the client's: no Authorization, no cookie, no CSRF token", async () => {
      expect(await seenBy("geocoder")).toEqual({ authorization: undefined, cookie: undefined, csrf: undefined, custom: "kept" });
    });

    test("the shortener gets Authorization, its session cookies, an admin's and a person's (every value under either name, no other cookie) and the CSRF token", async () => {
      expect(await seenBy("shortener")).toEqual({
        authorization: "Bearer admin.token",
        cookie:
          "linkgeo_admin=junk; linkgeo_admin=real-session; __Host-linkgeo_admin=host-session; linkgeo_person=lgs_person; __Host-linkgeo_person=lgs_host_person",
        csrf: "csrf-of-the-session",
        custom: "kept",
      });
    });
  });

  test("never sends a body with GET, whatever it is handed", async () => {
    await using upstream = startFakeUpstream();
    await proxy(new Request("http://sho.rt/Ab3dE9x"), poolOf([upstream.origin]), { body: new ArrayBuffer(4) });
    expect(upstream.requests.map(({ method, body }) => ({ method, body }))).toEqual([{ method: "GET", body: "" }]);
  });

  test("passes status and headers back without hop-by-hop ones, every cookie kept, with the request id", async () => {
    await using upstream = startRawUpstream(
      [
        "HTTP/1.1 201 Created",
        "Connection: keep-alive, X-Connection-Only",
        "X-Connection-Only: dropped",
        "Keep-Alive: timeout=5",
        "Proxy-Authenticate: Basic",
        "Upgrade: h2c",
        "Location: /shorten/Ab3dE9x/",
        "Set-Cookie: a=1; Path=/",
        "Set-Cookie: b=2; Path=/",
        "X-Request-Id: upstream-made-this-up",
        "Content-Type: application/json",
        "Content-Length: 2",
        "",
        "{}",
      ].join("\r\n"),
    );

    const response = await proxy(new Request("http://sho.rt/shorten/", { method: "POST" }), poolOf([upstream.origin]));

    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Created");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(Object.fromEntries(response.headers)).toEqual({
      location: "/shorten/Ab3dE9x/",
      "set-cookie": "b=2; Path=/",
      "x-request-id": "req-1",
      "content-type": "application/json",
      "content-length": "2",
    });
    expect(await response.text()).toBe("{}");
  });

  test("passes a redirect through with its Location instead of following it", async () => {
    await using upstream = startFakeUpstream(
      () => new Response(null, { status: 302, headers: { location: "https://example.com/a", "cache-control": "private, max-age=0" } }),
    );
    await using gateway = startTestGateway(poolOf([upstream.origin]));

    const response = await fetch(gateway.url("/Ab3dE9x/"), { redirect: "manual", headers: { "x-request-id": "client-id-1" } });

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/a");
    expect(response.headers.get("cache-control")).toBe("private, max-age=0");
    expect(response.headers.get("x-request-id")).toBe("client-id-1");
    expect(upstream.requests).toHaveLength(1);
  });

  test("hands a compressed body to the client as the upstream sent it", async () => {
    const text = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => ({ short_url: `code${i}` })) });
    const compressed = gzipSync(text);
    await using upstream = startFakeUpstream(() => new Response(compressed, { headers: { "content-encoding": "gzip", "content-type": "application/json" } }));
    await using gateway = startTestGateway(poolOf([upstream.origin]));

    const raw = await fetch(gateway.url("/shorten/"), { headers: { "accept-encoding": "gzip" }, decompress: false });
    expect(raw.headers.get("content-encoding")).toBe("gzip");
    expect(raw.headers.get("content-length")).toBe(String(compressed.length));
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(new Uint8Array(compressed));

    const decoded = await fetch(gateway.url("/shorten/"));
    expect(await decoded.text()).toBe(text);
    expect(upstream.requests.map((request) => request.headers["accept-encoding"])).toEqual(["gzip", "gzip, deflate, br, zstd"]);
  });

  test("streams the response: the client reads the first chunk before the upstream sends the last", async () => {
    const chunk = (letter: string) => new TextEncoder().encode(letter.repeat(64 * 1024));
    const lastMayGo = gate();
    await using upstream = startFakeUpstream(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(chunk("a"));
              controller.enqueue(chunk("b"));
              await lastMayGo.opened;
              controller.enqueue(chunk("c"));
              controller.close();
            },
          }),
        ),
    );
    await using gateway = startTestGateway(poolOf([upstream.origin]));

    const response = await fetch(gateway.url("/shorten/"));
    const reader = response.body!.getReader();
    const first = await withDeadline(reader.read(), 5_000, "the first chunk");
    expect(first.value?.[0]).toBe("a".charCodeAt(0));

    lastMayGo.open();
    let received = first.value?.byteLength ?? 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) received += next.value.byteLength;
    expect(received).toBe(3 * 64 * 1024);
  });

  test("answers 504 upstream_timeout when the upstream is slower than the limit", async () => {
    const answerMayGo = gate();
    await using upstream = startFakeUpstream(async () => {
      await answerMayGo.opened;
      return new Response("too late");
    });
    await using gateway = startTestGateway(poolOf([upstream.origin]), { timeoutMs: 300 });
    try {
      const startedAt = performance.now();
      const response = await fetch(gateway.url("/reverse-geocode?latitude=1&longitude=2"));
      const elapsed = performance.now() - startedAt;

      expect(response.status).toBe(504);
      expect(await readJson(response)).toEqual({
        error: { code: "upstream_timeout", message: "the shortener service did not answer within 300 ms" },
      });
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_500);
    } finally {
      answerMayGo.open();
    }
  });

  test("ends the upstream request when the client's connection closes, and answers 499 to no one", async () => {
    const reached = gate();
    let upstreamSawAbort = false;
    await using upstream = startFakeUpstream(async (request) => {
      request.signal.addEventListener("abort", () => (upstreamSawAbort = true));
      reached.open();
      // Never answers: only the client's going away ends this request.
      return new Promise<Response>(() => {});
    });
    const client = new AbortController();
    const proxied = proxy(new Request("http://sho.rt/Ab3dE9x", { signal: client.signal }), poolOf([upstream.origin])).catch((e) => e);
    await reached.opened;
    client.abort();
    expect(await proxied).toMatchObject({ status: 499, code: "client_closed_request" });
    await waitFor("the upstream to see its request end", () => upstreamSawAbort);
    const gone = await proxy(new Request("http://sho.rt/Ab3dE9x", { signal: AbortSignal.abort() }), poolOf([upstream.origin])).catch((e) => e);
    expect(gone).toMatchObject({ status: 499 });
    expect(upstream.requests).toHaveLength(1);
  });

  test("counts a retry against the same time limit", async () => {
    const answerMayGo = gate();
    await using slow = startFakeUpstream(async () => {
      await answerMayGo.opened;
      return new Response("too late");
    });
    try {
      const startedAt = performance.now();
      const error = await proxy(new Request("http://sho.rt/Ab3dE9x"), poolOf([await deadOrigin(), slow.origin]), { timeoutMs: 300 }).catch((e) => e);
      expect(error).toMatchObject({ status: 504, code: "upstream_timeout" });
      expect(performance.now() - startedAt).toBeLessThan(1_500);
      expect(slow.requests).toHaveLength(1);
    } finally {
      answerMayGo.open();
    }
  });

  describe("a target that is not a path", () => {
    test("never sends the request anywhere but a replica, nor ejects the replica", async () => {
      await using canary = startFakeUpstream(() => new Response("internal admin"));
      await using replica = startFakeUpstream();
      const pool = poolOf([replica.origin]);
      const canaryPort = new URL(canary.origin).port;
      // What Bun hands over for `CONNECT a:@127.0.0.1:<port>\internal\admin?x=1`: joined to
      // the replica's origin it named the canary, with the replica as Basic credentials.
      const request = new Request(`a:@127.0.0.1:${canaryPort}\\internal\\admin?x=1`, { method: "CONNECT" });

      const error = await proxy(request, pool).catch((e) => e);

      expect(error).toMatchObject({ status: 400, code: "invalid_request" });
      expect(canary.requests).toEqual([]);
      expect(replica.requests).toEqual([]);
      expect(pool.next()).toBe(replica.origin);
    });

    test.each([
      ["/a/b?c=d", "/a/b?c=d"],
      ["//127.0.0.1:9/x", "//127.0.0.1:9/x"],
      ["/@127.0.0.1:9/x", "/@127.0.0.1:9/x"],
      ["/%2F%2F127.0.0.1:9/x", "/%2F%2F127.0.0.1:9/x"],
      ["/..%2F..%2Fadmin", "/..%2F..%2Fadmin"],
    ])("the upstream URL for %p keeps the replica's origin", (path, expected) => {
      const target = new URL(`http://sho.rt${path}`);
      const url = upstreamUrl("http://10.0.0.7:3001", target);
      expect({ origin: url.origin, path: url.pathname + url.search, user: url.username }).toEqual({ origin: "http://10.0.0.7:3001", path: expected, user: "" });
    });
  });

  describe("when a replica fails", () => {
    test.each(["GET", "POST"])("retries a %s refused by one replica on another, and ejects the refusing one", async (method) => {
      await using alive = startFakeUpstream(() => new Response("from alive"));
      const dead = await deadOrigin();
      const lines: Record<string, unknown>[] = [];
      const pool = poolOf(
        [dead, alive.origin],
        createLogger({ service: "gateway", level: "warn", format: "json", write: (line) => lines.push(JSON.parse(line)) }),
      );
      await using gateway = startTestGateway(pool);

      const response = await fetch(gateway.url("/shorten/"), {
        method,
        ...(method === "POST" ? { body: '{"long_url":"https://example.com/"}', headers: { "content-type": "application/json" } } : {}),
      });

      expect(response.status).toBe(200);
      expect(await response.text()).toBe("from alive");
      expect(alive.requests.map((request) => [request.method, request.body])).toEqual([
        [method, method === "POST" ? '{"long_url":"https://example.com/"}' : ""],
      ]);
      expect(lines).toMatchObject([{ msg: "upstream replica ejected", replica: dead }]);
      expect([pool.next(), pool.next()]).toEqual([alive.origin, alive.origin]);
    });

    test("answers 502 to a POST whose upstream dropped the connection, and sends it nowhere else", async () => {
      await using dropping = startRawUpstream("");
      await using alive = startFakeUpstream();
      await using gateway = startTestGateway(poolOf([dropping.origin, alive.origin]));

      const response = await fetch(gateway.url("/shorten/"), { method: "POST", body: '{"long_url":"https://example.com/"}' });

      expect(response.status).toBe(502);
      expect(await readJson(response)).toEqual(unreachable);
      expect(dropping.received()).toBe(1);
      expect(alive.requests).toEqual([]);
    });

    test.each(["GET", "HEAD", "PUT", "DELETE"])("retries a %s whose upstream dropped the connection on another replica", async (method) => {
      await using dropping = startRawUpstream("");
      await using alive = startFakeUpstream(() => new Response(null, { status: 204 }));
      await using gateway = startTestGateway(poolOf([dropping.origin, alive.origin]));

      const response = await fetch(gateway.url("/shorten/Ab3dE9x/"), { method });

      expect(response.status).toBe(204);
      expect(dropping.received()).toBe(1);
      expect(alive.requests.map((request) => request.method)).toEqual([method]);
    });

    test("retries only once", async () => {
      await using alive = startFakeUpstream();
      const pool = poolOf([await deadOrigin(), await deadOrigin(), alive.origin]);

      const error = await proxy(new Request("http://sho.rt/Ab3dE9x"), pool).catch((e) => e);

      expect(error).toMatchObject({ status: 502, code: "upstream_unavailable" });
      expect(alive.requests).toEqual([]);
    });

    test("answers 502 upstream_unavailable without any internal address when every replica is down", async () => {
      const dead = [await deadOrigin(), await deadOrigin()];
      await using gateway = startTestGateway(poolOf(dead));

      const response = await fetch(gateway.url("/Ab3dE9x/"));
      const text = await response.text();

      expect(response.status).toBe(502);
      expect(JSON.parse(text)).toEqual(unreachable);
      expect(text).not.toContain("127.0.0.1");
      for (const origin of dead) expect(text).not.toContain(new URL(origin).port);
    });

    test("answers 502 upstream_unavailable when the pool has no replica yet", async () => {
      const pool = new UpstreamPool({
        name: "geocoder",
        urls: ["http://geocoder:3002"],
        refreshMs: 60_000,
        log: silentLogger,
        resolve: () => Promise.reject(new Error("getaddrinfo ENOTFOUND geocoder")),
      });
      await pool.refresh();

      const error = await proxy(new Request("http://sho.rt/geocoders"), pool).catch((e) => e);

      expect(error).toMatchObject({
        status: 502,
        code: "upstream_unavailable",
        message: "the geocoder service is unavailable, try again shortly",
      });
    });
  });
});

/** `promise`, or a clear failure if it takes longer than `ms` (a buffering proxy would hang). */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
