/**
 * Concurrent callers share one run of `fn`, but only a run that began after
 * they called: what each needs is a run that sees everything done before
 * its call (the visit log summed up to that moment). A caller that finds a
 * run begun before it waits for that one and then starts, or joins, the
 * next. So at most one run is in flight however many callers wait (one
 * connection, not one per reader), and each still gets a fresh one.
 */
export class FreshSingleFlight {
  private running: { startedAt: number; done: Promise<unknown> } | null = null;

  /** `now`: a monotonic clock in ms; tests pass one they move. */
  constructor(
    private readonly fn: () => Promise<unknown>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async run(): Promise<void> {
    const calledAt = this.now();
    for (;;) {
      const running = this.running;
      if (running === null) break;
      if (running.startedAt >= calledAt) {
        await running.done;
        return;
      }
      // Begun before this call: it may miss what was done just before; wait for it, then look again.
      await running.done.catch(() => {});
    }
    const run: { startedAt: number; done: Promise<unknown> } = { startedAt: this.now(), done: Promise.resolve() };
    // Cleared before anyone waiting on it resumes.
    run.done = this.fn().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    await run.done;
  }
}
