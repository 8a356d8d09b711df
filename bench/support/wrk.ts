import { BenchError, checkNotInterrupted, whileRunning } from "./lifecycle.ts";
import type { Settings } from "./settings.ts";

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

/** Fails with install instructions when wrk is not on PATH. */
export function requireWrk(): void {
  if (!Bun.which("wrk")) {
    throw new BenchError("wrk is not installed (it is not on PATH).\n       Install it with:  sudo apt-get install wrk   (Debian/Ubuntu)");
  }
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

/** `headers` go with every request (`-H "name: value"`); `script`, a Lua file, may choose each request's path (`-s`). */
export async function runWrk(settings: Settings, url: string, seconds: number, headers: Record<string, string> = {}, script?: string): Promise<WrkResult> {
  checkNotInterrupted();
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const scriptArgs = script === undefined ? [] : ["-s", script];
  const cmd = ["wrk", `-t${settings.threads}`, `-c${settings.connections}`, `-d${seconds}s`, "--latency", ...scriptArgs, ...headerArgs, url];
  const proc = Bun.spawn(cmd, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return whileRunning(proc, async () => {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new BenchError(`${cmd.join(" ")} exited with ${code}:\n${err}${out}`);
    return parseWrk(out);
  });
}
