/** A TCP port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** The first of `count` consecutive TCP ports nobody listens on right now. */
export async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const first = await freePort();
    if (first + count - 1 > 65535) continue;
    const held: Array<{ stop(closeActive?: boolean): void }> = [];
    try {
      for (let port = first; port < first + count; port++) held.push(Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }));
      return first;
    } catch {
      // One of them is taken: try another run.
    } finally {
      for (const server of held) server.stop(true);
    }
  }
}
