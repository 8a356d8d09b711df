/**
 * The end of a benchmark's own server process (bench/bare-server.ts,
 * bench/commit-server.ts): it says its port on stdout, which the parent
 * reads when PORT=0, and stops on SIGTERM or SIGINT.
 */
export function announceAndStopOnSignal(server: { port: number | undefined; stop(closeActiveConnections?: boolean): unknown }): void {
  console.log(`listening on ${server.port}`);
  const stop = () => {
    server.stop(true);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
