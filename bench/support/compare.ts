import { cpuMicros, cpuPerRequest, type MeasuredProcess } from "./process-cpu.ts";
import { fmtInt, fmtMs, median, table } from "./report.ts";
import type { Settings } from "./settings.ts";
import { runWrk, socketErrorTotal, type WrkResult } from "./wrk.ts";

/** One side of a comparison. */
export interface Target {
  /** Short name, for progress lines and the ratio: "bare", "shortener". */
  label: string;
  /** Row name in the table: "bare Bun.serve". */
  title: string;
  url: string;
  /** Sent with every request: what a real visitor's browser sends. */
  headers?: Record<string, string>;
  /** Wraps each measured run (not the warm-up), e.g. to read a counter before and after it. */
  measure?: (run: () => Promise<WrkResult>) => Promise<WrkResult>;
  /** The processes on this target's path, whose CPU per request each measured run reports. */
  processes?: MeasuredProcess[];
}

/** A measured run, with the CPU µs per request of each of its target's processes. */
export interface MeasuredRun extends WrkResult {
  cpu: { name: string; microsPerRequest: number }[];
}

export interface Comparison {
  bare: MeasuredRun[];
  subject: MeasuredRun[];
  /** The warm-up runs; none with BENCH_WARMUP_SECONDS=0. */
  warmup: { bare?: WrkResult; subject?: WrkResult };
  /** Targets measured alongside, for context only (not part of the ratio): their runs and warm-up. */
  context: { target: Target; runs: MeasuredRun[]; warmup?: WrkResult }[];
}

/**
 * Warms them all up, then measures the bare server, the subject and any
 * context targets with wrk, round after round; more rounds alternate which
 * goes first.
 */
export async function compareWithBare(settings: Settings, bare: Target, subject: Target, context: Target[] = []): Promise<Comparison> {
  const warmup: Comparison["warmup"] = {};
  const contextRuns: Comparison["context"] = context.map((target) => ({ target, runs: [] }));
  if (settings.warmupSeconds > 0) {
    process.stdout.write("warming up… ");
    warmup.bare = await runWrk(settings, bare.url, settings.warmupSeconds, bare.headers);
    warmup.subject = await runWrk(settings, subject.url, settings.warmupSeconds, subject.headers);
    for (const entry of contextRuns) entry.warmup = await runWrk(settings, entry.target.url, settings.warmupSeconds, entry.target.headers);
    console.log("done");
  }

  const runs = new Map<Target, MeasuredRun[]>([[bare, []], [subject, []], ...contextRuns.map((entry) => [entry.target, entry.runs] as const)]);
  const targets = [bare, subject, ...context];
  for (let round = 1; round <= settings.rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer (or hotter) machine.
    const order = round % 2 === 1 ? targets : [...targets].reverse();
    for (const target of order) {
      process.stdout.write(`round ${round}/${settings.rounds}: ${target.label}… `);
      const processes = target.processes ?? [];
      const before = processes.map((process) => cpuMicros(process.pid));
      const run = () => runWrk(settings, target.url, settings.seconds, target.headers);
      const wrk = await (target.measure ? target.measure(run) : run());
      const perRequest = cpuPerRequest(
        before,
        processes.map((process) => cpuMicros(process.pid)),
        wrk.requests,
      );
      const result: MeasuredRun = { ...wrk, cpu: processes.map((process, i) => ({ name: process.name, microsPerRequest: perRequest[i]! })) };
      runs.get(target)!.push(result);
      console.log(`${fmtInt(result.rps)} req/s`);
    }
  }
  return { bare: runs.get(bare)!, subject: runs.get(subject)!, warmup, context: contextRuns };
}

/**
 * Prints the table (medians of the rounds for rates and latencies, totals for
 * counts) and the ratio subject/bare against the target; returns the ratio.
 * Context targets get a row, their own ratio to bare and the subject's ratio
 * to them, without a verdict.
 */
export function reportComparison(comparison: Comparison, bare: Target, subject: Target, targetRatio: number): number {
  const bareRps = median(comparison.bare.map((r) => r.rps));
  const subjectRps = median(comparison.subject.map((r) => r.rps));
  const ratio = subjectRps / bareRps;
  const verdict = ratio >= targetRatio ? "PASS" : "BELOW TARGET";
  const rows = [
    ["", "requests/s", "p50", "p99", "requests", "non-2xx/3xx", "socket errors"],
    ...(
      [
        [bare.title, comparison.bare],
        [subject.title, comparison.subject],
        ...comparison.context.map((entry) => [entry.target.title, entry.runs] as const),
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
  console.log(`ratio ${subject.label}/bare: ${ratio.toFixed(3)}   target: >= ${targetRatio}   ${verdict}`);
  for (const entry of comparison.context) {
    const contextRps = median(entry.runs.map((r) => r.rps));
    console.log(
      `for context: ${entry.target.label}/bare ${(contextRps / bareRps).toFixed(3)}, ` +
        `${subject.label}/${entry.target.label} ${(subjectRps / contextRps).toFixed(3)}`,
    );
  }
  return ratio;
}

/**
 * CPU µs per request of every process on each target's path (median of the
 * rounds; from /proc, so whole clock ticks: read it over runs of seconds).
 */
export function reportCpu(comparison: Comparison, targets: { bare: Target; subject: Target }): void {
  const rows = [["", "CPU µs per request, by process"]];
  const entries = [
    [targets.bare, comparison.bare],
    [targets.subject, comparison.subject],
    ...comparison.context.map((entry) => [entry.target, entry.runs] as const),
  ] as const;
  for (const [target, runs] of entries) {
    const names = runs[0]?.cpu.map((entry) => entry.name) ?? [];
    if (names.length === 0) continue;
    const cells = names.map((name, i) => `${name} ${median(runs.map((run) => run.cpu[i]!.microsPerRequest)).toFixed(1)}`);
    const total = names.length > 1 ? `   (sum ${median(runs.map((run) => run.cpu.reduce((sum, entry) => sum + entry.microsPerRequest, 0))).toFixed(1)})` : "";
    rows.push([target.title, cells.join(", ") + total]);
  }
  if (rows.length > 1) console.log(`\n${table(rows)}`);
}

/** Answers that were not 2xx/3xx, in every measured run of every target. */
export function non2xx3xxTotal(comparison: Comparison): number {
  return [...comparison.bare, ...comparison.subject, ...comparison.context.flatMap((entry) => entry.runs)].reduce((sum, r) => sum + r.non2xx3xx, 0);
}

/**
 * Says on stderr what makes a redirect run's figures untrustworthy: counts
 * that do not match the redirects served, answers that were not 2xx/3xx.
 * True when there was any.
 */
export function reportRedirectRunProblems(countFailed: boolean, comparison: Comparison): boolean {
  if (countFailed) console.error("bench: the access count does not match the redirects served");
  const non2xx = non2xx3xxTotal(comparison);
  if (non2xx > 0) console.error(`bench: ${non2xx} answers were not 2xx/3xx; the numbers above are not redirect throughput`);
  return countFailed || non2xx > 0;
}
