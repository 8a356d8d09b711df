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
});
