/**
 * The whole suite's time against another checkout's, back to back (issue
 * 46: `bun test` in at most two thirds of the time it takes at the issue's
 * start, measured in the same hour, as the machines here drift up to
 * threefold from day to day). Each round runs the README's `bun test` in
 * both trees, one after the other, the order alternating from round to
 * round (so with an even number of rounds each tree runs first as often),
 * and reads for each run:
 *
 * - its wall time;
 * - the machine's busy core-seconds over it (/proc/stat: every process, the
 *   services and browsers the tests start, Postgres and the kernel), which
 *   says how much of the time is CPU the suite asks for and how much is
 *   waiting;
 * - its tests, failures and skips, and its slowest files, from the JUnit
 *   file it writes (`--reporter=junit`, as .ci/run does).
 *
 * It prints each run, the medians of the runs that passed whole (no test
 * failed or skipped: a skipped database suite would make a run faster for
 * nothing), this tree / base tree for the time and the CPU (target: the time
 * at most 0.67), and the slowest files of each tree's last such run
 * (scripts/test-times.ts):
 *
 *   git worktree add /tmp/suite-base cf50a8f && (cd /tmp/suite-base && bun install)
 *   BENCH_BASE_TREE=/tmp/suite-base bun run bench:suite
 *
 * Knobs: BENCH_BASE_TREE (required: a checkout with its dependencies
 * installed), BENCH_ROUNDS (2). Each run's output is kept in a folder of
 * the system's temporary directory, named at the start. Nothing else should
 * run on the machine meanwhile: the busy core-seconds are the machine's.
 * Stopped (Ctrl-C, SIGTERM), it stops the run in progress too.
 *
 * This is a report, not a test: it exits 0 whether or not the target is
 * met, and 1 on errors, a run with a failed or skipped test included (the
 * summary is printed all the same, from the runs that passed).
 */
import { closeSync, mkdtempSync, openSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileTimes, slowestReport } from "../scripts/test-times.ts";
import { baseTreeFromEnv } from "./support/base-tree.ts";
import { BenchError, checkNotInterrupted, onCleanup, runBench } from "./support/lifecycle.ts";
import { busyCoreSeconds } from "./support/machine-cpu.ts";
import { describeMachine, median, table } from "./support/report.ts";
import { intFromEnv } from "./support/settings.ts";

/** Issue 46's target: this tree's suite in at most this share of the base tree's time. */
const targetTimeRatio = 0.67;

/** How long a stopped run has to end its servers and browser before it is killed. */
const stopGraceMs = 30_000;

const thisTree = resolve(import.meta.dir, "..");

interface SuiteRun {
  wallSeconds: number;
  busyCoreSeconds: number;
  tests: number;
  failures: number;
  skipped: number;
  exitCode: number;
  junit: string;
}

const passedWhole = (run: SuiteRun) => run.exitCode === 0 && run.failures === 0 && run.skipped === 0;

/**
 * The environment a person's shell would give `bun test`: without the
 * benchmarks' knobs, and without what `bun run` adds for this tree (its
 * `node_modules/.bin` on PATH, the `npm_*` variables naming its package).
 */
function suiteEnvironment(): Record<string, string> {
  const ownBin = join(thisTree, "node_modules", ".bin");
  const withoutOwnBin = (path: string) =>
    path
      .split(delimiter)
      .filter((entry) => !resolve(entry).startsWith(ownBin))
      .join(delimiter);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("BENCH_") || name.startsWith("npm_")) continue;
    env[name] = name === "PATH" ? withoutOwnBin(value) : value;
  }
  return env;
}

/** The run in progress, stopped by the cleanup when the bench is. */
let running: Bun.Subprocess | undefined;

async function stopRunning(): Promise<void> {
  const suite = running;
  if (!suite || suite.exitCode !== null || suite.signalCode !== null) return;
  // SIGTERM first: the test kit's preload ends its throwaway servers, browser and stack on it.
  suite.kill("SIGTERM");
  if (!(await Promise.race([suite.exited.then(() => true), Bun.sleep(stopGraceMs).then(() => false)]))) {
    suite.kill("SIGKILL");
    await suite.exited;
  }
}

async function runSuite(tree: string, outDir: string, label: string): Promise<SuiteRun> {
  checkNotInterrupted();
  const junitPath = join(outDir, `${label}.xml`);
  const log = openSync(join(outDir, `${label}.log`), "w");
  try {
    const cpuBefore = busyCoreSeconds();
    const startedAt = performance.now();
    running = Bun.spawn([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${junitPath}`], {
      cwd: tree,
      env: suiteEnvironment(),
      stdin: "ignore",
      stdout: log,
      stderr: log,
    });
    const exitCode = await running.exited;
    const measured = { wallSeconds: (performance.now() - startedAt) / 1000, busyCoreSeconds: busyCoreSeconds() - cpuBefore, exitCode };
    const junit = await Bun.file(junitPath)
      .text()
      .catch(() => "");
    const totals = /<testsuites ([^>]*)>/.exec(junit);
    if (!totals) throw new BenchError(`bun test in ${tree} exited ${exitCode} without a JUnit file: see ${join(outDir, `${label}.log`)}`);
    const attribute = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(totals[1]!)?.[1] ?? Number.NaN);
    return { ...measured, tests: attribute("tests"), failures: attribute("failures"), skipped: attribute("skipped"), junit };
  } finally {
    running = undefined;
    closeSync(log);
  }
}

function describeRun(run: SuiteRun): string {
  const problems = passedWhole(run) ? "" : `   NOT COUNTED: exit ${run.exitCode}, ${run.failures} failed, ${run.skipped} skipped in the JUnit file`;
  return `${run.tests} tests in ${run.wallSeconds.toFixed(1)} s, ${run.busyCoreSeconds.toFixed(0)} busy core-seconds${problems}`;
}

async function main(): Promise<number> {
  const base = baseTreeFromEnv();
  if (!base) throw new BenchError("BENCH_BASE_TREE must name the checkout to measure against (see the comment at the top of bench/suite.ts)");
  const rounds = intFromEnv("BENCH_ROUNDS", 2, 1, 10);
  const outDir = mkdtempSync(join(tmpdir(), "bench-suite-"));
  onCleanup("the suite's run in progress", stopRunning);
  console.log(`bun test in this tree and in ${base.tree} (${base.commit}), back to back, ${rounds} round(s); runs' output in ${outDir}`);
  if (rounds % 2 === 1) console.log("  an odd number of rounds: the base tree runs first once more than this tree");
  console.log(`  machine: ${describeMachine()}\n`);

  const runs = { this: [] as SuiteRun[], base: [] as SuiteRun[] };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? (["base", "this"] as const) : (["this", "base"] as const);
    for (const which of order) {
      process.stdout.write(`round ${round}/${rounds}: ${which === "this" ? "this tree" : "base tree"}… `);
      const run = await runSuite(which === "this" ? thisTree : base.tree, outDir, `${which}-${round}`).catch((error) => {
        console.log();
        throw error;
      });
      runs[which].push(run);
      console.log(describeRun(run));
    }
  }

  const counted = { this: runs.this.filter(passedWhole), base: runs.base.filter(passedWhole) };
  const allCounted = counted.this.length === runs.this.length && counted.base.length === runs.base.length;
  if (counted.this.length === 0 || counted.base.length === 0) {
    console.log("\nno run of one tree passed whole: nothing to compare");
    return 1;
  }
  const summary = (which: "this" | "base") => ({
    wall: median(counted[which].map((run) => run.wallSeconds)),
    cpu: median(counted[which].map((run) => run.busyCoreSeconds)),
    tests: counted[which].at(-1)!.tests,
  });
  const ours = summary("this");
  const theirs = summary("base");
  const row = (name: string, { tests, wall, cpu }: typeof ours) => [
    name,
    String(tests),
    `${wall.toFixed(1)} s`,
    cpu.toFixed(0),
    `${((100 * cpu) / wall / availableParallelism()).toFixed(0)} %`,
  ];
  console.log(
    `\n${table([["", "tests", "wall (median)", "busy core-seconds (median)", "cores busy"], row("this tree", ours), row(`base tree (${base.commit})`, theirs)])}\n`,
  );
  const timeRatio = ours.wall / theirs.wall;
  console.log(`ratio this/base, time: ${timeRatio.toFixed(3)}   target: <= ${targetTimeRatio}   ${timeRatio <= targetTimeRatio ? "met" : "not met"}`);
  console.log(`for context: this/base, busy core-seconds ${(ours.cpu / theirs.cpu).toFixed(3)}, tests ${(ours.tests / theirs.tests).toFixed(3)}\n`);
  console.log(`this tree, last run counted: ${slowestReport(fileTimes(counted.this.at(-1)!.junit), 8)}\n`);
  console.log(`base tree, last run counted: ${slowestReport(fileTimes(counted.base.at(-1)!.junit), 8)}`);
  if (!allCounted) console.log("\nsome runs had a failed or skipped test and were left out (see above): exit 1");
  return allCounted ? 0 : 1;
}

if (import.meta.main) await runBench(main);
