import { readdirSync, readFileSync } from "node:fs";
import { BenchError } from "./lifecycle.ts";
import { ticksPerSecond } from "./machine-cpu.ts";

/** A process whose CPU a target's requests cost: the server itself, and what it calls. */
export interface MeasuredProcess {
  name: string;
  pid: number;
}

/**
 * CPU time (user + system, every thread) a process has used, in
 * microseconds, from /proc/<pid>/stat: whole ticks, so read it around runs
 * of seconds, not single requests.
 */
export function cpuMicros(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    throw new BenchError(`cannot read /proc/${pid}/stat: CPU per request needs Linux's /proc`);
  }
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / ticksPerSecond) * 1_000_000;
}

/** CPU µs per request of each process, over a run that served `requests` (read with cpuMicros before and after). */
export function cpuPerRequest(before: number[], after: number[], requests: number): number[] {
  return before.map((start, i) => (requests > 0 ? (after[i]! - start) / requests : Number.NaN));
}

/**
 * CPU time (µs) of every running process whose command name is `comm`,
 * summed: a whole Postgres cluster ("postgres": its server, backends,
 * WAL writer, autovacuum) or "redis-server". A process that exits between
 * two readings loses its share, so read it around runs where the set of
 * processes stays put (a pool's connections).
 */
export function cpuMicrosOfAll(comm: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== comm) continue;
      total += cpuMicros(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
