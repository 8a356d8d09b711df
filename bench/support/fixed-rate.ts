/**
 * An open-loop load at a fixed offered rate, for latency percentiles that
 * mean something: wrk sends the next request when the last one is
 * answered, so a stall delays the requests it would have sent and their
 * wait is never counted (coordinated omission). Here request i is due at
 * `i / rate` seconds whatever happened before, and its latency runs from
 * that moment to the end of its answer, a wait for a free connection
 * included. Raw HTTP/1.1 over `connections` keep-alive sockets (one
 * request in flight on each, the rest queued in order), so the client costs
 * a few µs a request and no fetch machinery. Due times are checked every
 * millisecond (the timers' grain): a request may leave up to ~1 ms late,
 * and that wait is in its latency (the bare server's row shows the floor).
 *
 * Run as its own process (`fixedRateLoad`), so its timers and CPU are not
 * the benchmark's: `bun bench/support/fixed-rate.ts '<json FixedRateJob>'`
 * prints a FixedRateResult as JSON.
 */
import { readFileSync } from "node:fs";
import { BenchError, whileRunning } from "./lifecycle.ts";

export interface FixedRateJob {
  /** host:port of the server; every request goes there. */
  host: string;
  port: number;
  /** One path for every request (a hot link), or a file of paths, one a line, each request taking one at random (uniform). */
  path?: string;
  pathsFile?: string;
  headers: Record<string, string>;
  /** Requests a second, offered whatever the answers do. */
  rate: number;
  seconds: number;
  connections: number;
}

export interface FixedRateResult {
  /** Requests due in the run, and those answered (the rest were still waiting when it ended, 5 s after the last was due). */
  due: number;
  answered: number;
  /** Answers other than 2xx and 3xx, and sockets that failed. */
  non2xx3xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** The client's own CPU per request, µs: what it took from the machine the server shares. */
  clientMicrosPerRequest: number;
}

/** Runs `job` in a child process of its own; resolves to what it measured. */
export async function fixedRateLoad(job: FixedRateJob): Promise<FixedRateResult> {
  const proc = Bun.spawn([process.execPath, import.meta.path, JSON.stringify(job)], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return whileRunning(proc, async () => {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new BenchError(`the fixed-rate load exited with ${code}:\n${err}${out}`);
    return JSON.parse(out) as FixedRateResult;
  });
}

/** The value at `share` (0.5, 0.99) of sorted latencies: nearest rank. */
export function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** How long answers may still come after the last request was due; later ones count as not answered. */
const drainMs = 5_000;

async function run(job: FixedRateJob): Promise<FixedRateResult> {
  const cpuBefore = process.cpuUsage();
  const paths = job.pathsFile ? readFileSync(job.pathsFile, "utf8").split("\n").filter(Boolean) : [job.path ?? "/"];
  const headerText = Object.entries({ host: `${job.host}:${job.port}`, ...job.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const requestOf = (path: string) => Buffer.from(`GET ${path} HTTP/1.1\r\n${headerText}\r\n`);
  const prebuilt = paths.length === 1 ? requestOf(paths[0]!) : undefined;
  const due = Math.round(job.rate * job.seconds);
  const latencies = new Float64Array(due);
  let answered = 0;
  let non2xx3xx = 0;
  let errors = 0;
  const connections = await Promise.all(Array.from({ length: job.connections }, () => openConnection(job)));
  const finished = Promise.withResolvers<void>();
  const settle = () => {
    if (answered + errors >= due) finished.resolve();
  };
  for (const connection of connections) {
    connection.onAnswer = (status, scheduledAt) => {
      latencies[answered++] = performance.now() - scheduledAt;
      if (status < 200 || status >= 400) non2xx3xx++;
      settle();
    };
    connection.onFailure = (lost) => {
      errors += lost;
      settle();
    };
  }

  const start = performance.now() + 50;
  let next = 0;
  let turn = 0;
  const tick = () => {
    const now = performance.now();
    for (; next < due && start + (next * 1000) / job.rate <= now; next++) {
      const scheduledAt = start + (next * 1000) / job.rate;
      // The least busy of the connections, taken in turn among equals.
      let chosen = connections[turn++ % connections.length]!;
      for (const connection of connections) if (connection.waiting() < chosen.waiting()) chosen = connection;
      chosen.send(prebuilt ?? requestOf(paths[Math.floor(Math.random() * paths.length)]!), scheduledAt);
    }
    if (next < due) setTimeout(tick, 1);
  };
  setTimeout(tick, 50);
  await Promise.race([finished.promise, Bun.sleep(job.seconds * 1000 + 50 + drainMs)]);
  for (const connection of connections) {
    connection.onFailure = () => {};
    connection.close();
  }
  const sorted = latencies.subarray(0, answered).sort();
  return {
    due,
    answered,
    non2xx3xx,
    errors,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    p999Ms: percentile(sorted, 0.999),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    clientMicrosPerRequest: (() => {
      const used = process.cpuUsage(cpuBefore);
      return (used.user + used.system) / Math.max(1, answered);
    })(),
  };
}

interface Connection {
  send(request: Buffer, scheduledAt: number): void;
  /** Requests sent or queued and not answered yet. */
  waiting(): number;
  onAnswer: (status: number, scheduledAt: number) => void;
  /** The socket failed: its requests in flight and queued are lost. */
  onFailure: (lost: number) => void;
  close(): void;
}

/** One keep-alive socket (Bun's own, the cheapest a client here has): one request in flight, the next ones queued; answers read by Content-Length (or a chunked body's last chunk). */
async function openConnection(job: FixedRateJob): Promise<Connection> {
  const queue: Array<{ request: Buffer; scheduledAt: number }> = [];
  let inFlight: { scheduledAt: number } | undefined;
  let buffer: Buffer = Buffer.alloc(0);
  /** What a write left unsent (the socket's buffer full): sent on drain. */
  let unsent: Buffer | undefined;
  let failed = false;
  const connection: Connection = {
    send(request, scheduledAt) {
      queue.push({ request, scheduledAt });
      if (!inFlight && !failed) sendNext();
    },
    waiting: () => queue.length + (inFlight ? 1 : 0),
    onAnswer: () => {},
    onFailure: () => {},
    close: () => socket.end(),
  };
  const write = (bytes: Buffer) => {
    const written = socket.write(bytes);
    unsent = written < bytes.length ? bytes.subarray(Math.max(0, written)) : undefined;
  };
  const sendNext = () => {
    const item = queue.shift();
    if (!item) return;
    inFlight = { scheduledAt: item.scheduledAt };
    write(item.request);
  };
  const fail = () => {
    if (failed) return;
    failed = true;
    connection.onFailure(queue.length + (inFlight ? 1 : 0));
    queue.length = 0;
    inFlight = undefined;
  };
  const socket = await Bun.connect({
    hostname: job.host,
    port: job.port,
    socket: {
      data(_socket, chunk) {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const end = answerEnd(buffer);
          if (end === undefined) return;
          const status = Number(buffer.toString("latin1", 9, 12));
          buffer = buffer.subarray(end);
          const answered = inFlight;
          inFlight = undefined;
          if (answered) connection.onAnswer(status, answered.scheduledAt);
          sendNext();
        }
      },
      drain() {
        if (unsent) write(unsent);
      },
      error: fail,
      close: fail,
    },
  });
  socket.setNoDelay(true);
  return connection;
}

/** Where the first complete answer in `buffer` ends, or undefined while it is not all there. */
export function answerEnd(buffer: Buffer): number | undefined {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const head = buffer.toString("latin1", 0, headEnd).toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return buffer.length >= end ? end : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
    const last = buffer.indexOf("\r\n0\r\n\r\n", headEnd);
    const empty = buffer.indexOf("0\r\n\r\n", headEnd + 4) === headEnd + 4;
    if (empty) return headEnd + 9;
    return last < 0 ? undefined : last + 7;
  }
  return headEnd + 4;
}

if (import.meta.main) {
  const job = JSON.parse(process.argv[2] ?? "{}") as FixedRateJob;
  process.stdout.write(JSON.stringify(await run(job)));
  process.exit(0);
}
