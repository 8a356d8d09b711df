/**
 * The baseline for bench/redirects.ts: a bare Bun.serve that answers every
 * request with the same redirect the shortener sends (status, Location,
 * Cache-Control), and does nothing else. Run as its own process so it does
 * not share an event loop with the bench driver.
 *
 *   PORT=4000 LOCATION=https://example.com/ bun run bench/bare-redirect-server.ts
 */
const port = Number(process.env.PORT ?? 0);
const location = process.env.LOCATION ?? "https://example.com/";
const status = Number(process.env.REDIRECT_STATUS ?? 302);

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(null, { status, headers: { location, "cache-control": "private, max-age=0" } }),
});

// The parent reads this line to learn the port when PORT=0.
console.log(`listening on ${server.port}`);

const stop = () => {
  server.stop(true);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
