import { readFileSync } from "node:fs";
import { BenchError } from "./lifecycle.ts";

/** Kernel clock ticks per second (`getconf CLK_TCK`), the unit of /proc's CPU times; 100 on every Linux we run on. */
export const ticksPerSecond = (() => {
  const answer = Bun.spawnSync(["getconf", "CLK_TCK"]);
  const value = Number(answer.stdout.toString().trim());
  return answer.success && value > 0 ? value : 100;
})();

/**
 * How long the machine's cores have been busy, in core-seconds, from the
 * first line of /proc/stat: user, nice, system, irq and softirq time (not
 * idle, iowait or steal; guest time is inside user already), every process
 * and the kernel's work for them together. The difference of two readings
 * is what a whole command cost the machine, its children and the servers
 * it talked to included, when nothing else runs.
 */
export function busyCoreSeconds(procStat: string = readProcStat()): number {
  const line = procStat.split("\n", 1)[0]!;
  const fields = line.split(/\s+/);
  if (fields[0] !== "cpu" || fields.length < 8) throw new BenchError(`not /proc/stat's first line: ${line.slice(0, 80)}`);
  const [user, nice, system, , , irq, softirq] = fields.slice(1, 8).map(Number) as number[];
  return (user! + nice! + system! + irq! + softirq!) / ticksPerSecond;
}

function readProcStat(): string {
  try {
    return readFileSync("/proc/stat", "utf8");
  } catch {
    throw new BenchError("cannot read /proc/stat: the machine's busy time needs Linux's /proc");
  }
}
