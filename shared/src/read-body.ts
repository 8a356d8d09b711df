import { PayloadTooLarge } from "./http-error.ts";

/**
 * The request body, read whole and never past `maxBytes` (413 on a declared
 * Content-Length over the limit, and again while reading a chunked body): the
 * services' JSON parser reads with it, and the gateway before proxying, so no
 * upstream ever sees an oversized body and a retry can send it again.
 * Null when the request has no body or an empty one.
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<ArrayBuffer | null> {
  if (request.body === null) return null;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new PayloadTooLarge(maxBytes);

  const chunks: Uint8Array[] = [];
  let size = 0;
  // Throwing out of the loop cancels the stream, so the rest is never read.
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new PayloadTooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (size === 0) return null;

  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body.buffer;
}
