import { describe, expect, test } from "bun:test";
import { PayloadTooLarge } from "@linkgeo/shared";
import { rejectionOf, waitFor } from "@linkgeo/testing";
import { readBodyLimited, readStreamLimited } from "../src/http/read-body.ts";

/**
 * A body that arrives in `count` chunks of `size` bytes (endless when
 * `count` is Infinity), counting the chunks taken and noting a cancel.
 */
function chunkedBody(count: number, size: number) {
  const progress = { pulled: 0, cancelled: false, cancelReason: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (progress.pulled === count) return controller.close();
        progress.pulled++;
        controller.enqueue(new Uint8Array(size).fill(120));
      },
      cancel(reason) {
        progress.cancelled = true;
        progress.cancelReason = reason;
      },
    },
    // Pulled only when read, so `pulled` counts what the reader took.
    { highWaterMark: 0 },
  );
  return { stream, progress };
}

/** A body that sends one chunk and then nothing, until cancelled. */
function stalledBody() {
  const progress = { cancelled: false };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent) return new Promise<void>(() => {});
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"partial":'));
      },
      cancel() {
        progress.cancelled = true;
      },
    },
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

describe("readStreamLimited", () => {
  const decoded = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

  test("returns a stream within the limit whole, and reads it to the end", async () => {
    const { stream, progress } = chunkedBody(3, 100);
    const read = await readStreamLimited(stream, { maxBytes: 300 });
    expect(read).toEqual({ tooLarge: false, bytes: new Uint8Array(300).fill(120) });
    expect(progress).toEqual({ pulled: 3, cancelled: false, cancelReason: undefined });
  });

  test("returns no bytes for no stream and for an empty one", async () => {
    expect(await readStreamLimited(null, { maxBytes: 10 })).toEqual({ tooLarge: false, bytes: null });
    expect(await readStreamLimited(new Response("").body, { maxBytes: 10 })).toEqual({ tooLarge: false, bytes: null });
  });

  test("reports a declared length over the limit as too large, reading nothing and cancelling the stream", async () => {
    const { stream, progress } = chunkedBody(1, 10);
    expect(await readStreamLimited(stream, { maxBytes: 1024, declaredLength: "400000000" })).toEqual({ tooLarge: true });
    expect(progress).toMatchObject({ pulled: 0, cancelled: true });
  });

  test.each([["abc"], ["-5"], ["1e9"], ["12, 12"], [""]])("reads on, counting, when the declared length is unreadable (%p)", async (declaredLength) => {
    const small = chunkedBody(1, 10);
    expect(await readStreamLimited(small.stream, { maxBytes: 1024, declaredLength })).toMatchObject({ tooLarge: false });
    const large = chunkedBody(Infinity, 400);
    expect(await readStreamLimited(large.stream, { maxBytes: 1024, declaredLength })).toEqual({ tooLarge: true });
    expect(large.progress).toMatchObject({ pulled: 3, cancelled: true });
  });

  test("stops an endless stream as soon as it passes the limit, and cancels it", async () => {
    const { stream, progress } = chunkedBody(Infinity, 400);
    expect(await readStreamLimited(stream, { maxBytes: 1024 })).toEqual({ tooLarge: true });
    // 400, 800, 1200: the third chunk passes 1024, and nothing is pulled after it.
    expect(progress).toMatchObject({ pulled: 3, cancelled: true });
  });

  test("a declared length within the limit does not let more through", async () => {
    const { stream, progress } = chunkedBody(Infinity, 400);
    expect(await readStreamLimited(stream, { maxBytes: 1024, declaredLength: "10" })).toEqual({ tooLarge: true });
    expect(progress.cancelled).toBe(true);
  });

  test("an abort while waiting for the next chunk cancels the stream and rejects with the signal's reason", async () => {
    const { stream, progress } = stalledBody();
    const controller = new AbortController();
    const pending = rejectionOf(readStreamLimited(stream, { maxBytes: 1024, signal: controller.signal }));
    controller.abort(new Error("deadline"));
    expect(await pending).toEqual(new Error("deadline"));
    expect(progress.cancelled).toBe(true);
  });

  test("a signal aborted before the read cancels the stream without reading", async () => {
    const { stream, progress } = chunkedBody(1, 10);
    const error = await rejectionOf(readStreamLimited(stream, { maxBytes: 1024, signal: AbortSignal.abort(new Error("gone")) }));
    expect(error).toEqual(new Error("gone"));
    expect(progress).toMatchObject({ pulled: 0, cancelled: true });
  });

  test("does not wait for a cancel to settle: a cloned Response's body over the limit is refused at once", async () => {
    // The cancel of one branch of a tee settles only when the other branch is cancelled too.
    const { stream, progress } = chunkedBody(Infinity, 400);
    const original = new Response(stream);
    const [declaring, counting] = [original.clone(), original.clone()];
    expect(await readStreamLimited(declaring.body, { maxBytes: 1024, declaredLength: "5000" })).toEqual({ tooLarge: true });
    expect(await readStreamLimited(counting.body, { maxBytes: 1024 })).toEqual({ tooLarge: true });
    // Once every branch is cancelled, so is the source.
    await original.body?.cancel();
    await waitFor("the source to be cancelled", () => progress.cancelled);
  });

  test("a stream that errors rejects with its error", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error("connection reset"));
      },
    });
    expect(await rejectionOf(readStreamLimited(stream, { maxBytes: 1024 }))).toEqual(new Error("connection reset"));
  });

  test("keeps the bytes as they came, across chunk boundaries", async () => {
    const text = '{"name":"Zürich – 東京"}';
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const read = await readStreamLimited(stream, { maxBytes: bytes.length });
    expect(read.tooLarge ? null : decoded(read.bytes)).toBe(text);
  });
});
