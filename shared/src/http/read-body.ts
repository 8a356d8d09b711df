import { PayloadTooLarge } from "./http-error.ts";

/** What reading a body under a size limit found. */
export type LimitedBody =
  /** The whole body; null when there was none or it was empty. */
  | { tooLarge: false; bytes: Uint8Array<ArrayBuffer> | null }
  /** Over the limit: declared so, or found so while reading. The rest was not read. */
  | { tooLarge: true };

export interface ReadLimitedOptions {
  maxBytes: number;
  /**
   * The Content-Length the peer declared, as sent. Over the limit, nothing is
   * read. An unreadable one is ignored: the count while reading still holds.
   */
  declaredLength?: string | null;
  /** Aborting it cancels the stream; the read then rejects with its reason. */
  signal?: AbortSignal;
}

/**
 * Reads a stream whole, but never past `maxBytes`: the one size-limited
 * reader of request bodies (the services' JSON parser, the gateway) and of
 * provider answers. Each caller turns `tooLarge` into its own error.
 *
 * When it stops early (too large, or the signal aborts) it cancels the
 * stream, so the peer's connection is closed rather than drained: a body of
 * 400 MB costs the chunks read before the limit, not 400 MB.
 */
export async function readStreamLimited(body: ReadableStream<Uint8Array> | null, options: ReadLimitedOptions): Promise<LimitedBody> {
  const { maxBytes, signal } = options;
  if (body === null) return { tooLarge: false, bytes: null };
  if (signal?.aborted) {
    cancelQuietly(body, signal.reason);
    throw signal.reason;
  }
  if (declaredOver(options.declaredLength, maxBytes)) {
    cancelQuietly(body);
    return { tooLarge: true };
  }

  const reader = body.getReader();
  // A cancel ends a pending read with `done`, so the abort is checked after every read.
  // Never awaited, as in cancelQuietly.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        // A fetch body whose request was aborted errors instead: the reason is the signal's.
        if (signal?.aborted) throw signal.reason;
        throw error;
      }
      if (signal?.aborted) throw signal.reason;
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(next.value);
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
  return { tooLarge: false, bytes: size === 0 ? null : concat(chunks, size) };
}

/**
 * The request body, read whole and never past `maxBytes` (413 on a declared
 * Content-Length over the limit, and again while reading a chunked body): the
 * services' JSON parser reads with it, and the gateway before proxying, so no
 * upstream ever sees an oversized body and a retry can send it again.
 * Null when the request has no body or an empty one.
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<ArrayBuffer | null> {
  const read = await readStreamLimited(request.body, { maxBytes, declaredLength: request.headers.get("content-length") });
  if (read.tooLarge) throw PayloadTooLarge.over(maxBytes);
  return read.bytes?.buffer ?? null;
}

function declaredOver(declared: string | null | undefined, maxBytes: number): boolean {
  if (declared === null || declared === undefined) return false;
  const trimmed = declared.trim();
  return /^\d+$/.test(trimmed) && Number(trimmed) > maxBytes;
}

/**
 * Cancels without waiting: the cancel of one branch of a tee'd stream (a
 * cloned Response) settles only once the other branch is cancelled too. A
 * stream another reader holds, or one already closed, has nothing to cancel.
 */
function cancelQuietly(body: ReadableStream<Uint8Array>, reason?: unknown): void {
  void body.cancel(reason).catch(() => {});
}

/** One array of exactly `size` bytes, its buffer holding nothing else. */
function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
