import type { Socket } from "bun";

export interface TcpProxy extends AsyncDisposable {
  /** The port clients connect to on 127.0.0.1. */
  port: number;
  /**
   * Stops passing bytes on, both ways, on every connection, and holds new
   * connections too: to both ends the peer has gone silent, as with a
   * frozen database or a cut network, but no connection is closed.
   */
  freeze(): void;
  /** Passes on everything held, in order, and carries on as normal. */
  thaw(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket<Pair>;
  upstream: Socket<Pair> | undefined;
  /** Bytes held while frozen (or before the upstream connected), per direction. */
  toUpstream: Uint8Array[];
  toClient: Uint8Array[];
}

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (Postgres, Redis), for
 * tests of what a service does when its dependency hangs instead of failing.
 */
export async function startTcpProxy(target: { hostname?: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  const pairs = new Set<Pair>();

  // A socket takes what it can; the rest waits for its drain.
  const send = (socket: Socket<Pair>, queue: Uint8Array[]) => {
    while (queue.length > 0) {
      const chunk = queue[0]!;
      const written = socket.write(chunk);
      if (written < chunk.byteLength) {
        queue[0] = chunk.subarray(Math.max(0, written));
        return;
      }
      queue.shift();
    }
  };
  const flush = (pair: Pair) => {
    if (frozen) return;
    if (pair.upstream) send(pair.upstream, pair.toUpstream);
    send(pair.client, pair.toClient);
  };

  const listener = Bun.listen<Pair>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(client) {
        const pair: Pair = { client, upstream: undefined, toUpstream: [], toClient: [] };
        client.data = pair;
        pairs.add(pair);
        pair.upstream = await Bun.connect<Pair>({
          hostname: target.hostname ?? "127.0.0.1",
          port: target.port,
          data: pair,
          socket: {
            data(_upstream, chunk) {
              pair.toClient.push(new Uint8Array(chunk));
              flush(pair);
            },
            drain() {
              flush(pair);
            },
            close() {
              pairs.delete(pair);
              pair.client.end();
            },
            error() {
              pair.client.end();
            },
          },
        });
        flush(pair);
      },
      data(client, chunk) {
        client.data.toUpstream.push(new Uint8Array(chunk));
        flush(client.data);
      },
      drain(client) {
        flush(client.data);
      },
      close(client) {
        pairs.delete(client.data);
        client.data.upstream?.end();
      },
      error(client) {
        client.data.upstream?.end();
      },
    },
  });

  const close = async () => {
    for (const pair of pairs) {
      pair.client.end();
      pair.upstream?.end();
    }
    listener.stop(true);
  };
  return {
    port: listener.port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const pair of pairs) flush(pair);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
