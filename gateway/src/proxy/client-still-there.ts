import { ClientClosedRequest } from "@linkgeo/shared";

/**
 * Resolves at the end of this turn of the event loop if the client's
 * connection is still open; rejects with ClientClosedRequest (499) if it
 * closed meanwhile. Bun closes a connection on which a request is pipelined
 * behind one still being answered (oven-sh/bun#38128) in the very turn the
 * requests are read: a redirect proxied at once would already be on its
 * way to the shortener, which counts it, before the close could follow it
 * (a review measured 155 of 200 such redirects counted unanswered). The
 * batcher waits the same turn by gathering.
 */
export async function clientStillThere(client: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (client.aborted) throw ClientClosedRequest.gone();
}
