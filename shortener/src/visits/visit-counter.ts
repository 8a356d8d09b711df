import type { LinkStore } from "../links/link-store.ts";

interface Waiter {
  resolve: (longUrl: string | null) => void;
  reject: (error: unknown) => void;
}

interface PendingCode {
  count: number;
  waiters: Waiter[];
}

/**
 * Group commit for redirects. Every visit waits until its increment is
 * committed by the database, so a redirect that answered is counted even if
 * the process is killed right after. Visits that arrive while a write is in
 * flight are merged into the next one (per code), so a busy link costs one
 * row update per batch, not one per request.
 */
export class VisitCounter {
  private readonly pending = new Map<string, PendingCode>();
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly store: Pick<LinkStore, "recordVisits">,
    private readonly clock: () => Date,
    private readonly maxCodesPerBatch = 1000,
  ) {}

  /**
   * Counts one visit of `code`. Resolves, once the count is durable, with
   * the link's current long URL, or null when there is no such link.
   */
  visit(code: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(code);
      if (!entry) {
        entry = { count: 0, waiters: [] };
        this.pending.set(code, entry);
      }
      entry.count += 1;
      entry.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when every visit taken so far has been written (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.scheduled || this.flushing) {
      await (this.flushing ?? Bun.sleep(1));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // setImmediate rather than a microtask: it lets every request that
    // arrived in this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flushUntilEmpty();
    });
  }

  private async flushUntilEmpty(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = this.takeBatch();
      try {
        const counts = new Map([...batch].map(([code, entry]) => [code, entry.count]));
        const longUrls = await this.store.recordVisits(counts, this.clock());
        for (const [code, entry] of batch) {
          const longUrl = longUrls.get(code) ?? null;
          for (const waiter of entry.waiters) waiter.resolve(longUrl);
        }
      } catch (error) {
        // Nothing of this batch was committed; its callers answer with an error.
        for (const entry of batch.values()) for (const waiter of entry.waiters) waiter.reject(error);
      }
    }
    this.flushing = null;
  }

  private takeBatch(): Map<string, PendingCode> {
    const batch = new Map<string, PendingCode>();
    for (const [code, entry] of this.pending) {
      if (batch.size === this.maxCodesPerBatch) break;
      batch.set(code, entry);
      this.pending.delete(code);
    }
    return batch;
  }
}
