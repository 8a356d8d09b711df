import { describe, expect, test } from "bun:test";
import { PayloadTooLarge } from "@linkgeo/shared";
import { rejectionOf } from "@linkgeo/shared/testing";
import { readBodyLimited } from "../src/read-body.ts";

/** A body that arrives in `count` chunks of `size` bytes, counting the chunks taken. */
function chunkedBody(count: number, size: number) {
  const progress = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (progress.pulled === count) return controller.close();
        progress.pulled++;
        controller.enqueue(new Uint8Array(size).fill(120));
      },
    },
    // Pulled only when read, so `pulled` counts what the reader took.
    { highWaterMark: 0 },
  );
  return { stream, progress };
}

const text = (buffer: ArrayBuffer | null) => (buffer === null ? null : new TextDecoder().decode(buffer));

describe("readBodyLimited", () => {
  test("returns a body within the limit, byte for byte", async () => {
    const request = new Request("http://sho.rt/shorten/", { method: "POST", body: '{"long_url":"https://example.com/é"}' });
    expect(text(await readBodyLimited(request, 1024))).toBe('{"long_url":"https://example.com/é"}');
  });

  test("returns a body of exactly the limit", async () => {
    const { stream } = chunkedBody(4, 256);
    const body = await readBodyLimited(new Request("http://sho.rt/shorten/", { method: "POST", body: stream }), 1024);
    expect(body?.byteLength).toBe(1024);
  });

  test("returns null for no body and for an empty one", async () => {
    expect(await readBodyLimited(new Request("http://sho.rt/Ab3dE9x"), 1024)).toBeNull();
    expect(await readBodyLimited(new Request("http://sho.rt/shorten/", { method: "POST", body: "" }), 1024)).toBeNull();
  });

  test("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { stream, progress } = chunkedBody(1, 10);
    const request = new Request("http://sho.rt/shorten/", { method: "POST", body: stream, headers: { "content-length": "1025" } });
    const error = await rejectionOf(readBodyLimited(request, 1024));
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(progress.pulled).toBe(0);
  });

  test("stops reading a streamed body as soon as it passes the limit", async () => {
    const { stream, progress } = chunkedBody(100, 400);
    const error = await rejectionOf(readBodyLimited(new Request("http://sho.rt/shorten/", { method: "POST", body: stream }), 1024));
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(progress.pulled).toBeLessThan(5);
  });
});
