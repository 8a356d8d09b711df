import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "./wait-for.ts";

/**
 * A fake geocoding provider that is a real HTTP server (Bun.serve on
 * 127.0.0.1, port 0): ky talks to it for real, so timeouts, retries, refused
 * connections and bad bodies happen as they do in life. It answers the
 * scripted replies in order, then `otherwise`, and records every request.
 *
 *   await using fake = startFakeProvider({ replies: [reply.status(503), reply.fixture("nominatim-07-…json")] });
 */

/** One scripted answer. */
export interface FakeReply {
  /** Default 200. */
  status?: number;
  /** Sent as is. */
  body?: string;
  headers?: Record<string, string>;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Waits for this before answering: a gate the test opens, to hold a request in flight. */
  until?: Promise<unknown>;
  /** Never answers: the request hangs until the fake closes. */
  never?: boolean;
  /** The body, streamed (chunked) instead of `body`; see `reply.stream`. */
  stream?: StreamedBody;
}

/** A body sent as `prefix`, then `chunk` `repeat` times (without end when absent), then `suffix`. */
export interface StreamedBody {
  prefix?: string;
  chunk: string;
  repeat?: number;
  suffix?: string;
}

/** What became of a streamed body: how much of it the client took. */
export interface StreamProgress {
  /** Bytes handed to the connection so far (the client's socket buffers hold some it never read). */
  sentBytes: number;
  /** The client stopped reading and the body was cancelled. */
  cancelled: boolean;
  /** Sent to the end. */
  finished: boolean;
}

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** performance.now() when it arrived. */
  at: number;
  /** Set when the reply was streamed. */
  streamed?: StreamProgress;
  /** The client closed the connection before the answer was complete (a timeout, an abort). */
  abandoned: boolean;
}

export interface FakeProvider extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order of arrival. */
  readonly requests: RecordedRequest[];
  /** A URL on this server (default path /reverse), with query parameters if given. */
  url(path?: string, query?: Record<string, string>): URL;
  /** Appends replies for the next requests. */
  script(...replies: FakeReply[]): void;
  /** The reply once the script is used up. */
  otherwise(reply: FakeReply): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeProviderOptions {
  replies?: FakeReply[];
  /**
   * The reply once the script is used up. Default: 418 with a JSON note, a
   * status nothing retries, so an unplanned request shows up in the counts.
   */
  otherwise?: FakeReply;
}

/** The recorded provider payloads (Geoapify, HERE, Nominatim) that the geocoder's and the gateway's tests replay. */
export const providerFixturesDir = fileURLToPath(new URL("../fixtures/providers/", import.meta.url));

/** The text of a recorded payload in fixtures/providers (documented provider answers, byte for byte). */
export function fixtureText(name: string): string {
  return readFileSync(join(providerFixturesDir, name), "utf8");
}

const jsonType = { "content-type": "application/json; charset=utf-8" };

/** Ready-made replies. */
export const reply = {
  json(value: unknown, status = 200, headers: Record<string, string> = {}): FakeReply {
    return { status, body: JSON.stringify(value), headers: { ...jsonType, ...headers } };
  },
  /** A recorded payload from fixtures/providers, byte for byte. */
  fixture(name: string, status = 200, headers: Record<string, string> = {}): FakeReply {
    return { status, body: fixtureText(name), headers: { ...jsonType, ...headers } };
  },
  /** A status with a small JSON error body. */
  status(status: number, headers: Record<string, string> = {}): FakeReply {
    return reply.json({ error: `status ${status}` }, status, headers);
  },
  /** An HTML page where JSON was expected: what a proxy or a maintenance page sends. */
  html(status = 200): FakeReply {
    return {
      status,
      body: "<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Down for maintenance</h1></body></html>",
      headers: { "content-type": "text/html; charset=utf-8" },
    };
  },
  /** The first half of a JSON document, labelled as JSON: a body cut off on the way. */
  cutOffJson(jsonText: string, status = 200): FakeReply {
    return { status, body: jsonText.slice(0, Math.floor(jsonText.length / 2)), headers: jsonType };
  },
  never(): FakeReply {
    return { never: true };
  },
  /** A JSON body streamed in chunks, of any size or without end: what a broken or hostile upstream sends. */
  stream(body: StreamedBody, status = 200): FakeReply {
    return { status, stream: body, headers: jsonType };
  },
};

export function startFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  const queue: FakeReply[] = [...(options.replies ?? [])];
  let fallback: FakeReply = options.otherwise ?? reply.json({ error: "no scripted reply left" }, 418);
  const requests: RecordedRequest[] = [];
  const hanging = new Set<() => void>();

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // Bun closes idle connections after 10 s by default; "never answers" must mean never.
    idleTimeout: 0,
    async fetch(request) {
      const recorded: RecordedRequest = {
        method: request.method,
        url: new URL(request.url),
        headers: Object.fromEntries(request.headers),
        at: performance.now(),
        abandoned: false,
      };
      requests.push(recorded);
      request.signal.addEventListener("abort", () => void (recorded.abandoned = true), { once: true });
      const next = queue.shift() ?? fallback;
      if (next.never) {
        // Settled only when the fake closes, so nothing is left pending after a test.
        await new Promise<void>((resolve) => hanging.add(resolve));
        return new Response(null, { status: 503 });
      }
      if (next.delayMs) await Bun.sleep(next.delayMs);
      if (next.until) await next.until;
      if (next.stream) {
        recorded.streamed = { sentBytes: 0, cancelled: false, finished: false };
        return new Response(streamBody(next.stream, recorded.streamed), { status: next.status ?? 200, headers: next.headers });
      }
      return new Response(next.body ?? "", { status: next.status ?? 200, headers: next.headers });
    },
  });

  const port = server.port;
  if (port === undefined) throw new Error("fake provider: Bun.serve gave no port");
  const origin = `http://127.0.0.1:${port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const release of hanging) release();
    hanging.clear();
    await server.stop(true);
  };

  return {
    origin,
    port,
    requests,
    url(path = "/reverse", query = {}) {
      const url = new URL(path, origin);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      return url;
    },
    script(...replies) {
      queue.push(...replies);
    },
    otherwise(next) {
      fallback = next;
    },
    waitForRequests(count, timeoutMs = 5_000) {
      return waitFor(`${count} requests to the fake provider`, () => requests.length >= count, timeoutMs);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * The body as a pull stream: a chunk is made only when the connection takes
 * one, so `sentBytes` stops growing once the client stops reading, and a
 * client that goes away cancels it.
 */
function streamBody(body: StreamedBody, progress: StreamProgress): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const prefix = encoder.encode(body.prefix ?? "");
  const chunk = encoder.encode(body.chunk);
  const suffix = encoder.encode(body.suffix ?? "");
  let sentChunks = 0;
  let sentPrefix = prefix.byteLength === 0;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    progress.sentBytes += bytes.byteLength;
    controller.enqueue(bytes);
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sentPrefix) {
          sentPrefix = true;
          return send(controller, prefix);
        }
        if (body.repeat === undefined || sentChunks < body.repeat) {
          sentChunks++;
          return send(controller, chunk);
        }
        if (suffix.byteLength > 0) send(controller, suffix);
        progress.finished = true;
        controller.close();
      },
      cancel() {
        progress.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}
