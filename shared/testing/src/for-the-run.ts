/**
 * Something started once for a whole `bun test` run and shared by every
 * file that asks for it. A plain `bun test` runs the files one after another
 * in one process that keeps their modules, so the first file to ask starts
 * it and the others reuse it; the preload disposes everything started this
 * way after the last file (`disposeRunResources`). Under `bun test
 * --parallel` each file runs in a fresh global with the preload run again,
 * so the same code starts one per file and disposes it after that file.
 *
 * With `--parallel --no-isolate` a worker keeps its modules across files but
 * the preload still disposes after each file: what was disposed is never
 * handed out again, the next ask starts anew.
 *
 * `usable` says whether what was started can still serve (a browser that
 * crashed cannot): if not, the next file to ask starts another. A start that
 * failed is tried again by the next file.
 */
export function forTheRun<T extends AsyncDisposable>(start: () => Promise<T>, usable: (value: T) => boolean = () => true): () => Promise<T> {
  let current: Promise<T> | undefined;
  let currentDisposals = disposals;
  // Each ask waits for the one before it: two at once get one start, not two.
  return () => {
    const previous = currentDisposals === disposals ? current : undefined;
    currentDisposals = disposals;
    current = (async () => {
      const value = await previous?.catch(() => undefined);
      if (value !== undefined && usable(value)) return value;
      const fresh = start();
      started.push(fresh);
      return fresh;
    })();
    return current;
  };
}

const started: Array<Promise<AsyncDisposable>> = [];
/** How many times `disposeRunResources` has run: what was started before the last one is gone. */
let disposals = 0;

/** Disposes every value `forTheRun` started (one that failed to start or to stop is passed over); called by the preload after the last file. */
export async function disposeRunResources(): Promise<void> {
  disposals++;
  const all = started.splice(0);
  await Promise.all(
    all.map(async (starting) => {
      const value = await starting.catch(() => undefined);
      await Promise.resolve(value?.[Symbol.asyncDispose]()).catch(() => {});
    }),
  );
}
