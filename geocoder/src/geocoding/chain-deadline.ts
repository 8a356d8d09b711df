/** The reason a network provider's call was aborted: the chain's time was up, not the provider's. */
export class ChainTimeUp extends Error {
  constructor(readonly budgetMs: number) {
    super(`the provider chain's ${budgetMs} ms are used up`);
    this.name = "ChainTimeUp";
  }
}

/**
 * The time one pass down the provider chain may take, from its start. Its
 * signal aborts the network provider in flight when the time is up; the
 * timer is cleared on dispose, so a chain that answered early leaves none.
 *
 *   using deadline = new ChainDeadline(8_000);
 */
export class ChainDeadline implements Disposable {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(readonly budgetMs: number) {
    this.timer = setTimeout(() => this.controller.abort(new ChainTimeUp(budgetMs)), budgetMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Whether `error` is this deadline's abort, as a provider rejects with it. */
  aborted(error: unknown): boolean {
    return this.passed && error === this.controller.signal.reason;
  }

  [Symbol.dispose](): void {
    clearTimeout(this.timer);
  }
}
