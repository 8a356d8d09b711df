import type { Server } from "bun";

/** What an upstream received, as it received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeUpstream extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, as a pool replica. */
  origin: string;
  requests: ReceivedRequest[];
  stop(): Promise<void>;
}

/** A real HTTP upstream on a free port that records each request, then answers with `reply`. */
export function startFakeUpstream(reply: (request: Request) => Response | Promise<Response> = () => new Response("ok")): FakeUpstream {
  const requests: ReceivedRequest[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      requests.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body: await request.clone().text(),
      });
      return reply(request);
    },
  });
  const stop = () => server.stop(true);
  return { origin: `http://127.0.0.1:${server.port}`, requests, stop, [Symbol.asyncDispose]: stop };
}

export interface RawUpstream extends AsyncDisposable {
  origin: string;
  /** Requests whose head arrived in full. */
  received: () => number;
  stop(): void;
}

/**
 * A TCP upstream that reads a request head and then writes `answer` as
 * raw bytes (an empty string: just closes the connection), to play an
 * upstream that crashes mid-request or sends headers no HTTP server library
 * would let a test set.
 */
export function startRawUpstream(answer: string): RawUpstream {
  let received = 0;
  const listener = Bun.listen<{ head: string }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        socket.data = { head: "" };
      },
      data(socket, chunk) {
        socket.data.head += chunk.toString("latin1");
        if (!socket.data.head.includes("\r\n\r\n")) return;
        received++;
        if (answer) socket.write(answer);
        socket.end();
      },
    },
  });
  const stop = () => listener.stop(true);
  return { origin: `http://127.0.0.1:${listener.port}`, received: () => received, stop, [Symbol.asyncDispose]: async () => stop() };
}

/** A promise the test resolves when it wants: lets an upstream wait without a sleep. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
