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
  /** Wraps each measured run (not the warm-up), e.g. to read a counter before and after it. */
  measure?: (run: () => Promise<WrkResult>) => Promise<WrkResult>;
}

export interface Comparison {
  bare: WrkResult[];
  subject: WrkResult[];
  /** The warm-up runs; none with BENCH_WARMUP_SECONDS=0. */
  warmup: { bare?: WrkResult; subject?: WrkResult };
}

/**
 * Warms both up, then measures the bare server and the subject with wrk,
 * round after round; more rounds alternate which goes first.
 */
export async function compareWithBare(settings: Settings, bare: Target, subject: Target): Promise<Comparison> {
  const warmup: Comparison["warmup"] = {};
  if (settings.warmupSeconds > 0) {
    process.stdout.write("warming up… ");
    warmup.bare = await runWrk(settings, bare.url, settings.warmupSeconds);
    warmup.subject = await runWrk(settings, subject.url, settings.warmupSeconds);
    console.log("done");
  }

  const runs = new Map<Target, WrkResult[]>([
    [bare, []],
    [subject, []],
  ]);
  for (let round = 1; round <= settings.rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer (or hotter) machine.
    const order = round % 2 === 1 ? [bare, subject] : [subject, bare];
    for (const target of order) {
      process.stdout.write(`round ${round}/${settings.rounds}: ${target.label}… `);
      const run = () => runWrk(settings, target.url, settings.seconds);
      const result = await (target.measure ? target.measure(run) : run());
      runs.get(target)!.push(result);
      console.log(`${fmtInt(result.rps)} req/s`);
    }
  }
  return { bare: runs.get(bare)!, subject: runs.get(subject)!, warmup };
}

/**
 * Prints the table (medians of the rounds for rates and latencies, totals for
 * counts) and the ratio subject/bare against the target; returns the ratio.
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
  return ratio;
}

/** Answers that were not 2xx/3xx, in every measured run of both sides. */
export function non2xx3xxTotal(comparison: Comparison): number {
  return [...comparison.bare, ...comparison.subject].reduce((sum, r) => sum + r.non2xx3xx, 0);
}
