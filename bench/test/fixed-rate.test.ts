import { describe, expect, test } from "bun:test";
import { answerEnd, fixedRateLoad, percentile } from "../support/fixed-rate.ts";

describe("the fixed-rate load (bench/support/fixed-rate.ts)", () => {
  test("finds where an answer ends: by Content-Length, by a chunked body's last chunk, or at its head; not before it is all there", () => {
    const head = "HTTP/1.1 302 Found\r\nLocation: /x\r\n";
    const sized = Buffer.from(`${head}Content-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK`);
    expect(answerEnd(sized)).toBe(sized.indexOf("HTTP/1.1 200"));
    expect(answerEnd(sized.subarray(0, sized.length - 20))).toBeUndefined();
    const chunked = Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n`);
    expect(answerEnd(chunked)).toBe(chunked.length);
    expect(answerEnd(chunked.subarray(0, chunked.length - 2))).toBeUndefined();
    const emptyChunked = Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    expect(answerEnd(emptyChunked)).toBe(emptyChunked.length);
    const bare = Buffer.from(`${head}\r\n`);
    expect(answerEnd(bare)).toBe(bare.length);
  });

  test("percentiles by nearest rank", () => {
    const sorted = Float64Array.from({ length: 1000 }, (_, i) => i + 1);
    expect([percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 0.999)]).toEqual([500, 990, 999]);
    expect(percentile(new Float64Array(0), 0.5)).toBeNaN();
  });

  test("offers its rate whatever the answers do: every request due is sent, answered and timed; a slow answer's wait counts", async () => {
    let seen = 0;
    using server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        seen++;
        // Every 50th answer stalls 100 ms: an open loop keeps sending meanwhile, on the other connections.
        if (seen % 50 === 0) await Bun.sleep(100);
        return new URL(request.url).pathname === "/gone" ? new Response("gone", { status: 410 }) : Response.redirect("https://example.com/", 302);
      },
    });
    const result = await fixedRateLoad({ host: "127.0.0.1", port: server.port!, path: "/", headers: {}, rate: 500, seconds: 1, connections: 4 });
    expect(result).toMatchObject({ due: 500, answered: 500, non2xx3xx: 0, errors: 0 });
    expect(seen).toBe(500);
    // The stalled ones (2 %) and those queued behind them on their connection are past the p99; the median is not.
    expect(result.p50Ms).toBeLessThan(50);
    expect(result.maxMs).toBeGreaterThanOrEqual(100);
    const gone = await fixedRateLoad({ host: "127.0.0.1", port: server.port!, path: "/gone", headers: {}, rate: 100, seconds: 0.5, connections: 2 });
    expect(gone).toMatchObject({ due: 50, answered: 50, non2xx3xx: 50 });
  });
});
