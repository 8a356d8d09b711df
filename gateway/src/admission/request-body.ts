import { isImportRequest, isJsonMediaType, mediaTypeOf, PayloadTooLarge, readBodyLimited, refuseDeepJsonBody } from "@linkgeo/shared";

/** A request's body as the gateway sends it upstream: read whole, none, or an import's file, streamed. */
export type RequestBody = ArrayBuffer | ReadableStream<Uint8Array> | null;

/**
 * The body to send upstream. Every body is read whole first, at most
 * `limitBytes` (64 KiB, a bulk create's 4 MiB; 413 past it: no upstream
 * ever sees an oversized one, and a retry can send it again), except an import's file (isImportRequest), which may be a
 * gigabyte: refused at once when its Content-Length says more than
 * `importMaxBytes`, else streamed through as it arrives, cut off (the
 * upstream's request fails) if it grows past the limit all the same.
 * A JSON body nested deeper than the services take is refused here (400),
 * as every service would refuse it, so no upstream spends a moment on it.
 */
export async function requestBody(request: Request, { limitBytes, importMaxBytes }: { limitBytes: number; importMaxBytes: number }): Promise<RequestBody> {
  if (!isImportRequest(request) || request.body === null) {
    const body = await readBodyLimited(request, limitBytes);
    if (body !== null && isJsonMediaType(mediaTypeOf(request))) refuseDeepJsonBody(new TextDecoder().decode(body));
    return body;
  }
  const declared = request.headers.get("content-length")?.trim();
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > importMaxBytes) {
    void request.body.cancel().catch(() => {});
    throw PayloadTooLarge.over(importMaxBytes);
  }
  let size = 0;
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > importMaxBytes) controller.error(PayloadTooLarge.over(importMaxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}
