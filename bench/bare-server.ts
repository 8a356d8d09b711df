/**
 * The baseline of the benchmarks: a bare Bun.serve that answers every request
 * with one fixed response, a copy of what the service under test sends (the
 * shortener's 302, the geocoder's JSON body), and does nothing else. Run as
 * its own process so it does not share an event loop with the bench driver.
 * bench/support/bare.ts starts it and checks it answers what it was given.
 *
 *   PORT=4000 STATUS=302 HEADERS='{"location":"https://example.com/"}' bun run bench/bare-server.ts
 *   PORT=4000 HEADERS='{"content-type":"application/json"}' BODY='{"ok":true}' bun run bench/bare-server.ts
 *
 * STATUS (200), HEADERS (a JSON object, {}), BODY (none when unset).
 */
import { announceAndStopOnSignal } from "./support/served-child.ts";

const port = Number(process.env.PORT ?? 0);
const status = Number(process.env.STATUS ?? 200);
const headers = JSON.parse(process.env.HEADERS ?? "{}") as Record<string, string>;
const body = process.env.BODY ?? null;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(body, { status, headers }),
});

announceAndStopOnSignal(server);
