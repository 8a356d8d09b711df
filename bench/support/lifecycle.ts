/**
 * What every benchmark script shares around its measurements: one error type
 * for expected failures, a stack of cleanup steps run exactly once (at the
 * end, or on Ctrl-C / SIGTERM), and the entry point that ties them together.
 *
 *   if (import.meta.main) await runBench(main);
 */

/** An expected failure: printed as "bench: <message>", without a stack. */
export class BenchError extends Error {}

const cleanups: { what: string; run: () => Promise<void> | void }[] = [];
const running = new Set<Bun.Subprocess>();

/** Registers a cleanup step; steps run in reverse order of registration. */
export function onCleanup(what: string, run: () => Promise<void> | void): void {
  cleanups.push({ what, run });
}

/** A short-lived process (wrk) that a cleanup must kill if it is still running. */
export async function whileRunning<T>(proc: Bun.Subprocess, body: () => Promise<T>): Promise<T> {
  running.add(proc);
  try {
    return await body();
  } finally {
    running.delete(proc);
  }
}

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
export const cleanUp = () => (cleaning ??= runCleanups());

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, cleaning up…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

export function isInterrupted(): boolean {
  return interrupted;
}

/** Once interrupted, start nothing new: the cleanup may already have run. */
export function checkNotInterrupted(): void {
  if (interrupted) throw new BenchError("interrupted");
}

/**
 * Runs a benchmark's main, then the cleanups, and exits: with main's status,
 * 1 if it threw, 130 if interrupted.
 */
export async function runBench(main: () => Promise<number>): Promise<never> {
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
