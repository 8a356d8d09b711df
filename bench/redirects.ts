/**
 * Redirect throughput: the real shortener (Postgres + Redis, every redirect
 * counted in the database before it answers) against a bare Bun.serve that
 * sends the same 302 and does nothing else. Both are measured with wrk in the
 * same run, on the same machine, so the ratio shortener/bare says how much of
 * Bun's raw speed the shortener keeps. It also checks that the link's
 * access_count grew by exactly the number of redirects wrk received.
 *
 *   bun run bench                       # 10 s per target
 *   BENCH_SECONDS=5 bun run bench
 *
 * Knobs (environment): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (64), BENCH_THREADS (1), BENCH_ROUNDS (1; more rounds
 * alternate bare/shortener and report the median), BENCH_LOG_LEVEL (warn) and
 * BENCH_ACCESS_LOG (false) for the shortener. TEST_POSTGRES_URL and
 * TEST_REDIS_URL as for the tests.
 *
 * This is a report, not a test: it exits 0 whether or not the ratio reaches
 * the target, and 1 only on errors (including a count that lost redirects).
 */
import { join } from "node:path";
import {
  createTestDatabase,
  deleteKeysWithPrefix,
  freePort,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
  type TestDatabase,
} from "@linkgeo/shared/testing";

const targetRatio = 0.5;
const shortenerDir = join(import.meta.dir, "..", "shortener");
const bareServerPath = join(import.meta.dir, "bare-redirect-server.ts");
const longUrl = "https://example.com/bench/landing-page";

// ---------------------------------------------------------------------------
// Settings

class BenchError extends Error {}

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new BenchError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function readSettings() {
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
  const accessLog = process.env.BENCH_ACCESS_LOG ?? "false";
  if (!["debug", "info", "warn", "error"].includes(logLevel)) throw new BenchError(`BENCH_LOG_LEVEL must be debug, info, warn or error`);
  if (!["true", "false"].includes(accessLog)) throw new BenchError(`BENCH_ACCESS_LOG must be true or false`);
  return {
    seconds: intFromEnv("BENCH_SECONDS", 10, 1, 3600),
    warmupSeconds: intFromEnv("BENCH_WARMUP_SECONDS", 2, 0, 600),
    connections: intFromEnv("BENCH_CONNECTIONS", 64, 1, 10_000),
    threads: intFromEnv("BENCH_THREADS", 1, 1, 256),
    rounds: intFromEnv("BENCH_ROUNDS", 1, 1, 100),
    logLevel,
    accessLog,
  };
}
type Settings = ReturnType<typeof readSettings>;

// ---------------------------------------------------------------------------
// Child processes and cleanup

/** A child whose output is drained (so it never blocks on a full pipe) and kept for error reports. */
class Child {
  private readonly tail: string[] = [];

  constructor(
    readonly name: string,
    readonly proc: Bun.Subprocess<"ignore", "pipe", "pipe">,
  ) {
    void this.drain(proc.stdout);
    void this.drain(proc.stderr);
  }

  output(): string {
    return this.tail.join("\n");
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill("SIGTERM");
    const exited = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
    if (!exited) {
      this.proc.kill("SIGKILL");
      await this.proc.exited;
    }
  }

  private async drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      partial += decoder.decode(chunk, { stream: true });
      const parts = partial.split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) this.keep(line);
    }
    if (partial) this.keep(partial);
  }

  private keep(line: string): void {
    this.tail.push(line);
    if (this.tail.length > 40) this.tail.shift();
  }
}

const cleanups: { what: string; run: () => Promise<void> | void }[] = [];
const running = new Set<Bun.Subprocess>();

async function runCleanups(): Promise<void> {
  for (const proc of running) proc.kill("SIGKILL");
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    try {
      await step.run();
    } catch (error) {
      console.error(`bench: cleanup failed (${step.what}): ${error instanceof Error ? error.message : error}`);
    }
  }
}

// One cleanup, whoever asks first (the end of main or a signal); both wait for it.
let cleaning: Promise<void> | undefined;
const cleanUp = () => (cleaning ??= runCleanups());

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, cleaning up…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Once interrupted, start nothing new: the cleanup may already have run. */
function checkNotInterrupted(): void {
  if (interrupted) throw new BenchError("interrupted");
}

function spawnChild(name: string, cmd: string[], options: { cwd?: string; env: Record<string, string | undefined> }): Child {
  checkNotInterrupted();
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const child = new Child(name, proc);
  cleanups.push({ what: `stop ${name}`, run: () => child.stop() });
  return child;
}

/** Polls until `condition` holds; fails early, with the child's output, if the child dies. */
async function waitForChild(child: Child, what: string, condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    what,
    async () => {
      if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
        throw new BenchError(`${child.name} exited (${child.proc.exitCode ?? child.proc.signalCode}) before ${what}:\n${child.output()}`);
      }
      return condition();
    },
    timeoutMs,
  ).catch((error) => {
    if (error instanceof BenchError) throw error;
    throw new BenchError(`${error instanceof Error ? error.message : error}\n${child.name} output:\n${child.output()}`);
  });
}

// ---------------------------------------------------------------------------
// wrk

export interface WrkResult {
  requests: number;
  durationSeconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  non2xx3xx: number;
  raw: string;
}

const timeUnits: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function toMs(value: string, unit: string): number {
  const factor = timeUnits[unit];
  if (factor === undefined) throw new BenchError(`unknown time unit "${unit}" in wrk output`);
  return Number(value) * factor;
}

/** Reads the numbers out of `wrk --latency` output. */
export function parseWrk(raw: string): WrkResult {
  const need = (pattern: RegExp, what: string) => {
    const match = raw.match(pattern);
    if (!match) throw new BenchError(`cannot find ${what} in wrk output:\n${raw}`);
    return match;
  };
  const requests = need(/^\s*(\d+) requests in ([\d.]+)(us|ms|s|m|h),/m, '"N requests in …"');
  const rps = need(/^Requests\/sec:\s*([\d.]+)/m, "Requests/sec");
  const p50 = need(/^\s*50%\s+([\d.]+)(us|ms|s|m|h)\s*$/m, "the 50% latency (was --latency given?)");
  const p99 = need(/^\s*99%\s+([\d.]+)(us|ms|s|m|h)\s*$/m, "the 99% latency");
  const errors = raw.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const non2xx = raw.match(/Non-2xx or 3xx responses: (\d+)/);
  return {
    requests: Number(requests[1]),
    durationSeconds: toMs(requests[2]!, requests[3]!) / 1000,
    rps: Number(rps[1]),
    p50Ms: toMs(p50[1]!, p50[2]!),
    p99Ms: toMs(p99[1]!, p99[2]!),
    socketErrors: {
      connect: Number(errors?.[1] ?? 0),
      read: Number(errors?.[2] ?? 0),
      write: Number(errors?.[3] ?? 0),
      timeout: Number(errors?.[4] ?? 0),
    },
    non2xx3xx: Number(non2xx?.[1] ?? 0),
    raw,
  };
}

export function socketErrorTotal(result: WrkResult): number {
  const e = result.socketErrors;
  return e.connect + e.read + e.write + e.timeout;
}

async function runWrk(settings: Settings, url: string, seconds: number): Promise<WrkResult> {
  checkNotInterrupted();
  const cmd = ["wrk", `-t${settings.threads}`, `-c${settings.connections}`, `-d${seconds}s`, "--latency", url];
  const proc = Bun.spawn(cmd, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  running.add(proc);
  try {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new BenchError(`${cmd.join(" ")} exited with ${code}:\n${err}${out}`);
    return parseWrk(out);
  } finally {
    running.delete(proc);
  }
}

// ---------------------------------------------------------------------------
// The shortener

async function accessCount(base: string, code: string): Promise<number> {
  const response = await fetch(`${base}/shorten/${code}/stats/`);
  if (response.status !== 200) throw new BenchError(`GET /shorten/${code}/stats/ answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { access_count?: unknown };
  if (typeof body.access_count !== "number") throw new BenchError(`stats without a numeric access_count: ${JSON.stringify(body)}`);
  return body.access_count;
}

/**
 * The count once it stops moving: requests wrk abandoned when its timer
 * ran out may still be committing.
 */
async function settledAccessCount(base: string, code: string): Promise<number> {
  let previous = await accessCount(base, code);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await Bun.sleep(150);
    const current = await accessCount(base, code);
    if (current === previous) return current;
    previous = current;
  }
  throw new BenchError("access_count was still changing 10 s after wrk stopped");
}

interface CountCheck {
  /** Redirects wrk received (requests completed minus non-2xx/3xx answers). */
  redirected: number;
  counted: number;
  socketErrors: number;
  verdict: "exact" | "exact+inflight" | "lost" | "over";
}

/**
 * Every redirect wrk received must have been counted (the shortener commits
 * before answering). A few more may be counted than wrk reports: requests in
 * flight when wrk's timer stopped, or whose connection failed (socket
 * errors), reached the server and were committed, but wrk never read the
 * answer. At most one request per connection is in flight.
 */
export function checkCount(result: WrkResult, counted: number, connections: number): CountCheck {
  const redirected = result.requests - result.non2xx3xx;
  const socketErrors = socketErrorTotal(result);
  const verdict =
    counted === redirected ? "exact" : counted < redirected ? "lost" : counted - redirected <= connections + socketErrors ? "exact+inflight" : "over";
  return { redirected, counted, socketErrors, verdict };
}

async function startShortener(settings: Settings, database: TestDatabase, redisPrefix: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawnChild("shortener", [process.execPath, "run", "src/main.ts"], {
    cwd: shortenerDir,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      ELYSIA_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
    },
  });
  await waitForChild(child, `the shortener's /ready on ${base}`, async () => {
    const response = await fetch(`${base}/ready`).catch(() => null);
    if (!response) return false;
    const body = (await response.json().catch(() => ({}))) as { status?: string };
    return response.status === 200 && body.status === "ready";
  });
  return { base, child };
}

async function createLink(base: string): Promise<string> {
  const response = await fetch(`${base}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new BenchError(`POST /shorten/ answered ${response.status}: ${text}`);
  const code = (JSON.parse(text) as { short_url?: unknown }).short_url;
  if (typeof code !== "string") throw new BenchError(`POST /shorten/ answered without short_url: ${text}`);
  return code;
}

/** One redirect by hand: checks it is a 302 and returns the exact headers the bare server must copy. */
async function probeRedirect(url: string): Promise<{ location: string; cacheControl: string }> {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  const cacheControl = response.headers.get("cache-control");
  if (response.status !== 302 || !location) throw new BenchError(`GET ${url} answered ${response.status}, not a 302 with Location`);
  if (cacheControl !== "private, max-age=0") throw new BenchError(`GET ${url} answered Cache-Control "${cacheControl}"`);
  return { location, cacheControl };
}

async function startBareServer(location: string) {
  const port = await freePort();
  const child = spawnChild("bare server", [process.execPath, "run", bareServerPath], {
    env: { ...process.env, PORT: String(port), LOCATION: location },
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitForChild(child, `the bare server on ${url}`, async () => {
    const response = await fetch(url, { redirect: "manual" }).catch(() => null);
    return response?.status === 302;
  });
  const probe = await probeRedirect(url);
  if (probe.location !== location) throw new BenchError(`the bare server redirects to ${probe.location}, not ${location}`);
  return { url, child };
}

// ---------------------------------------------------------------------------
// Report

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");
const fmtMs = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("   ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("   "), ...rows.slice(1).map(line)].join("\n");
}

function describeCount(check: CountCheck, connections: number): string {
  const numbers = `access_count grew by ${fmtInt(check.counted)}, wrk received ${fmtInt(check.redirected)} redirects` +
    (check.socketErrors > 0 ? ` and reported ${check.socketErrors} socket errors` : "");
  const extra = check.counted - check.redirected;
  switch (check.verdict) {
    case "exact":
      return `EXACT (${numbers})`;
    case "exact+inflight":
      return (
        `EXACT: every redirect wrk received was counted (${numbers}). The ${fmtInt(extra)} extra ` +
        (check.socketErrors > 0 ? `were in flight when wrk stopped or hit socket errors` : `were in flight when wrk's timer stopped (at most one per connection, ${connections})`) +
        `: the shortener served and counted them, wrk dropped the answers`
      );
    case "lost":
      return `NOT EXACT: ${fmtInt(-extra)} redirects were answered but not counted (${numbers})`;
    case "over":
      return `NOT EXACT: ${fmtInt(extra)} more counted than could have been in flight (${numbers})`;
  }
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  if (!Bun.which("wrk")) {
    console.error("bench: wrk is not installed (it is not on PATH).");
    console.error("       Install it with:  sudo apt-get install wrk   (Debian/Ubuntu)");
    return 1;
  }
  const settings = readSettings();

  const database = await createTestDatabase("bench");
  if (interrupted) {
    await database.drop();
    throw new BenchError("interrupted");
  }
  cleanups.push({ what: `drop database ${database.name}`, run: () => database.drop() });
  const redisPrefix = uniqueRedisPrefix("bench");
  cleanups.push({ what: `delete Redis keys ${redisPrefix}*`, run: () => deleteKeysWithPrefix(testRedisUrl, redisPrefix) });

  const shortener = await startShortener(settings, database, redisPrefix);
  const code = await createLink(shortener.base);
  const shortenerUrl = `${shortener.base}/${code}/`;
  const { location } = await probeRedirect(shortenerUrl);
  const bare = await startBareServer(location);

  console.log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s --latency, ` +
      `${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s); ` +
      `shortener LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, Postgres + Redis`,
  );
  console.log(`  bare:      ${bare.url}`);
  console.log(`  shortener: ${shortenerUrl}  ->  ${location}\n`);

  if (settings.warmupSeconds > 0) {
    process.stdout.write("warming up… ");
    await runWrk(settings, bare.url, settings.warmupSeconds);
    await runWrk(settings, shortenerUrl, settings.warmupSeconds);
    console.log("done");
  }

  const bareRuns: WrkResult[] = [];
  const shortenerRuns: WrkResult[] = [];
  const checks: CountCheck[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer (or hotter) machine.
    const order = round % 2 === 1 ? (["bare", "shortener"] as const) : (["shortener", "bare"] as const);
    for (const which of order) {
      process.stdout.write(`round ${round}/${settings.rounds}: ${which}… `);
      if (which === "bare") {
        const result = await runWrk(settings, bare.url, settings.seconds);
        bareRuns.push(result);
        console.log(`${fmtInt(result.rps)} req/s`);
      } else {
        const before = await settledAccessCount(shortener.base, code);
        const result = await runWrk(settings, shortenerUrl, settings.seconds);
        const after = await settledAccessCount(shortener.base, code);
        shortenerRuns.push(result);
        checks.push(checkCount(result, after - before, settings.connections));
        console.log(`${fmtInt(result.rps)} req/s`);
      }
    }
  }

  const bareRps = median(bareRuns.map((r) => r.rps));
  const shortenerRps = median(shortenerRuns.map((r) => r.rps));
  const ratio = shortenerRps / bareRps;
  const verdict = ratio >= targetRatio ? "PASS" : "BELOW TARGET";
  const rows = [
    ["", "requests/s", "p50", "p99", "requests", "non-2xx/3xx", "socket errors"],
    ...(
      [
        ["bare Bun.serve", bareRuns],
        ["shortener", shortenerRuns],
      ] as const
    ).map(([name, runs]) => [
      name,
      fmtInt(median(runs.map((r) => r.rps))),
      fmtMs(median(runs.map((r) => r.p50Ms))),
      fmtMs(median(runs.map((r) => r.p99Ms))),
      fmtInt(runs.reduce((sum, r) => sum + r.requests, 0)),
      fmtInt(runs.reduce((sum, r) => sum + r.non2xx3xx, 0)),
      fmtInt(runs.reduce((sum, r) => sum + socketErrorTotal(r), 0)),
    ]),
  ];
  console.log(`\n${table(rows)}\n`);
  console.log(`ratio shortener/bare: ${ratio.toFixed(3)}   target: >= ${targetRatio}   ${verdict}`);
  for (const [i, check] of checks.entries()) {
    console.log(`counting${checks.length > 1 ? ` (round ${i + 1})` : ""}: ${describeCount(check, settings.connections)}`);
  }

  let failed = false;
  if (checks.some((c) => c.verdict === "lost" || c.verdict === "over")) {
    console.error("bench: the access count does not match the redirects served");
    failed = true;
  }
  const non2xx = shortenerRuns.reduce((sum, r) => sum + r.non2xx3xx, 0) + bareRuns.reduce((sum, r) => sum + r.non2xx3xx, 0);
  if (non2xx > 0) {
    console.error(`bench: ${non2xx} answers were not 2xx/3xx; the numbers above are not redirect throughput`);
    if (shortener.child.output()) console.error(`shortener output (last lines):\n${shortener.child.output()}`);
    failed = true;
  }
  return failed ? 1 : 0;
}

if (import.meta.main) {
  let status = 1;
  try {
    status = await main();
  } catch (error) {
    if (!interrupted) console.error(`bench: ${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : error}`);
    status = 1;
  } finally {
    await cleanUp();
  }
  process.exit(interrupted ? 130 : status);
}
