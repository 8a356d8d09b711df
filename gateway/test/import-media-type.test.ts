import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "../../shortener/test/support/test-shortener.ts";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { startTestGateway, type TestGateway } from "./support/test-gateway.ts";

/**
 * An import's file in a media type the route does not take, through the
 * gateway to the real shortener: the gateway streams it through whatever
 * its size, and the shortener's answer names what the route takes.
 */
describe("POST /admin/import in a media type the route does not take, through the gateway", () => {
  let shortener: TestShortener;
  let gateway: TestGateway;
  let shortenerServer: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    shortener = await startTestShortener();
    shortenerServer = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => shortener.app.handle(request) });
    gateway = startTestGateway(
      new UpstreamPool({ name: "shortener", urls: [`http://127.0.0.1:${shortenerServer.port}`], refreshMs: 60_000, log: silentLogger }),
    );
  });
  afterAll(async () => {
    await gateway.stop();
    await shortenerServer.stop(true);
    await shortener[Symbol.asyncDispose]();
  });

  const takes =
    "an import's Content-Type must be one of text/csv, application/x-ndjson, application/ndjson, application/jsonl, text/plain (%s); " +
    "the file's format is told from its first line, or named with ?format= (one of linkgeo-ndjson, linkgeo-csv, csv, shlink, bitly, yourls)";
  const line = (n: number) => `${JSON.stringify({ long_url: `https://example.com/${n}` })}\n`;
  const ndjson = (lines: number) => Array.from({ length: lines }, (_, n) => line(n)).join("");

  test.each([
    ["NDJSON sent as application/json", { "content-type": "application/json" }, ndjson(2), "not application/json"],
    ["NDJSON past 64 KiB sent as application/json", { "content-type": "application/json" }, ndjson(2_000), "not application/json"],
    ["CSV sent with no Content-Type", {}, "long_url\nhttps://example.com/\n", "none was sent"],
    ["CSV sent as text/html", { "content-type": "text/html" }, "long_url\nhttps://example.com/\n", "not text/html"],
  ])("%s: 415 naming the media types it takes and ?format=", async (_, headers: Record<string, string>, body, sent) => {
    const response = await fetch(gateway.url("/admin/import"), {
      method: "POST",
      headers: { authorization: `Bearer ${shortener.adminToken()}`, ...headers },
      body: new TextEncoder().encode(body),
    });
    expect([response.status, await readJson(response)]).toEqual([415, { error: { code: "unsupported_media_type", message: takes.replace("%s", sent) } }]);
  });
});
