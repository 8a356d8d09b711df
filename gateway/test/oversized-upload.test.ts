import { describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { startFakeUpstream } from "./support/fake-upstream.ts";
import { startTestGateway } from "./support/test-gateway.ts";

describe("an oversized upload", () => {
  test("never reaches any upstream, even streamed without a Content-Length", async () => {
    await using upstream = startFakeUpstream();
    await using gateway = startTestGateway(new UpstreamPool({ name: "shortener", urls: [upstream.origin], refreshMs: 60_000, log: silentLogger }));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 20) return controller.close();
        controller.enqueue(new Uint8Array(4096).fill(120));
      },
    });

    const response = await fetch(gateway.url("/shorten/"), { method: "POST", body });

    expect(response.status).toBe(413);
    expect(await readJson(response)).toEqual({ error: { code: "payload_too_large", message: "request body is larger than 65536 bytes" } });
    expect(upstream.requests).toEqual([]);
  });

  test("an import's file streams through to the shortener, past the 64 KiB of other bodies", async () => {
    await using upstream = startFakeUpstream((request) => new Response(`${request.headers.get("content-type")}`));
    await using gateway = startTestGateway(new UpstreamPool({ name: "shortener", urls: [upstream.origin], refreshMs: 60_000, log: silentLogger }));
    const file = "short_url,long_url\n".concat("x,https://example.com/\n".repeat(10_000));

    const response = await fetch(gateway.url("/admin/import?format=csv"), { method: "POST", headers: { "content-type": "text/csv" }, body: file });

    expect(response.status).toBe(200);
    expect(upstream.requests.map((request) => ({ path: request.path, size: request.body.length }))).toEqual([
      { path: "/admin/import?format=csv", size: file.length },
    ]);
  });

  test("an import's file declared over IMPORT_MAX_BYTES is refused before any upstream sees it", async () => {
    await using upstream = startFakeUpstream();
    await using gateway = startTestGateway(new UpstreamPool({ name: "shortener", urls: [upstream.origin], refreshMs: 60_000, log: silentLogger }), {
      importMaxBytes: 1024 * 1024,
    });

    const response = await fetch(gateway.url("/admin/import"), {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: new Uint8Array(2 * 1024 * 1024).fill(120),
    });

    expect(response.status).toBe(413);
    expect(await readJson(response)).toEqual({ error: { code: "payload_too_large", message: "request body is larger than 1048576 bytes" } });
    expect(upstream.requests).toEqual([]);
  });
});
