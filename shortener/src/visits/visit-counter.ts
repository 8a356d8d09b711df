import { ClientClosedRequest, ServiceUnavailable } from "@linkgeo/shared";
import { DatabaseTimeout, defaultDatabaseTimeoutMs, withDatabaseDeadline } from "../database-deadline.ts";
import { LinkVisits } from "./link-visits.ts";
import { visitorKey, type DescribeVisitor, type SeenVisitor } from "./seen-visitor.ts";
import type { VisitFacts } from "./visit-facts.ts";
import type { VisitAccess, VisitClaim, VisitWriter } from "./visit-writer.ts";

const unknownVisitor: SeenVisitor = { peer: undefined, forwardedFor: null, userAgent: null, referer: null };

/** What became of one visit: its link's destination (the writer's `Destination`), and whether this visit was let through (and counted). */
export interface CountedVisit<Destination> {
  destination: Destination;
  through: boolean;
  /** Analytics on: who its visitor is, as the write classified them; the link's rules read it instead of classifying again. */
  facts?: VisitFacts;
}

interface Waiter<Destination> {
  resolve: (visit: CountedVisit<Destination> | null) => void;
  reject: (error: unknown) => void;
  /** The client's connection; aborted when it closed. */
  client: AbortSignal | undefined;
  /** Analytics on: the visitor this visit added to its code's `visitors`. */
  visitorKey: string | undefined;
}

interface PendingCode<Destination> {
  count: number;
  /** Analytics on: the distinct visitors, with how many visits each made, and their facts once classified for the write. */
  visitors: Map<string, { visitor: SeenVisitor; count: number; facts?: VisitFacts }>;
  waiters: Waiter<Destination>[];
  /** When its first visit came (`now()`): how long the oldest has waited. */
  since: number;
}

export interface VisitCounterOptions {
  /** Codes per write. Default 1,000. */
  maxCodesPerBatch?: number;
  /** The deadline of one write (DATABASE_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * Visits waiting to be written, at most; more are refused at once (503)
   * rather than piling up in memory while the database hangs. Default 100,000.
   */
  maxWaiting?: number;
  /** Milliseconds on a monotonic clock, for how long visits have waited; tests pass one they move. */
  now?: () => number;
  /** Analytics: who a visitor is. Absent (ANALYTICS=off): visits are only counted. */
  describe?: DescribeVisitor;
  /** Told of every write: the metrics (METRICS_PORT). */
  observer?: VisitCounterObserver;
  /** The visits of this counter gave their link's password (the unlock form's): protected links count them. */
  access?: VisitAccess;
}

/** What a VisitCounter reports of each write it made. */
export interface VisitCounterObserver {
  /** A batch was committed: `counted` visits of links that exist, `visits` in all, `seconds` for the write. */
  written(batch: { visits: number; counted: number; seconds: number }): void;
  /** A batch failed (timeout, database error): its `visits` were answered with an error and not counted. */
  failed(batch: { visits: number; seconds: number }): void;
}

/**
 * Group commit for redirects. Every visit waits until its increment is
 * committed by the database, so a redirect that answered is counted even if
 * the process is killed right after. Visits that arrive while a write is in
 * flight are merged into the next one (per code), so a busy link costs one
 * row update per batch, not one per request; its analytics are merged the
 * same way and written in the same transaction. A batch's visitors are
 * classified when it is written, once per distinct visitor (a busy link's
 * clicks from one browser cost one classification, not one per click).
 *
 * A write that has not come back by its deadline fails its visits
 * (DatabaseTimeout: 503) and the store is told not to commit it; the next
 * batch goes out at once. Visits that have waited past the deadline before
 * their batch left fail without being sent. So a visit waits at most twice
 * the deadline, and a visit whose client saw an error is never counted,
 * unless its COMMIT was already on its way.
 *
 * A visit whose client's connection closed before its batch left is taken
 * out of the batch, uncounted (ClientClosedRequest): such a client gets no
 * redirect. Bun closes a connection on which a request is pipelined behind
 * one still being answered (oven-sh/bun#38128), in the same turn as the
 * first request arrived, so this keeps those from being counted with no
 * answer. A client that hangs up once its batch has left is counted.
 */
export class VisitCounter<Destination> {
  private readonly pending = new Map<string, PendingCode<Destination>>();
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  private waiting = 0;
  private readonly maxCodesPerBatch: number;
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private readonly now: () => number;
  private readonly describe: DescribeVisitor | undefined;
  private readonly observer: VisitCounterObserver | undefined;
  private readonly access: VisitAccess | undefined;
  private readonly options: VisitCounterOptions;
  private unlockedSibling: VisitCounter<Destination> | undefined;

  constructor(
    private readonly store: VisitWriter<Destination>,
    private readonly clock: () => Date,
    options: VisitCounterOptions = {},
  ) {
    this.maxCodesPerBatch = options.maxCodesPerBatch ?? 1000;
    this.timeoutMs = options.timeoutMs ?? defaultDatabaseTimeoutMs;
    this.maxWaiting = options.maxWaiting ?? 100_000;
    this.now = options.now ?? (() => performance.now());
    this.describe = options.describe;
    this.observer = options.observer;
    this.access = options.access;
    this.options = options;
  }

  /**
   * The counter of visits that gave their link's password (the unlock
   * form), with this one's options: a protected link counts only those.
   * Drained with this one.
   */
  get unlocked(): VisitCounter<Destination> {
    this.unlockedSibling ??= new VisitCounter<Destination>(this.store, this.clock, { ...this.options, access: { unlocked: true } });
    return this.unlockedSibling;
  }

  /** Whether visits should come with their visitor (analytics on). */
  get analysing(): boolean {
    return this.describe !== undefined;
  }

  /**
   * Counts one visit of `code`, with who made it (analytics; ignored when
   * they are off). Resolves, once the count is durable, with the link's
   * destination and whether this visit was let through (a link with a cap,
   * an expiry or a password may let fewer through than came), or null when
   * there is no such link. `client` is the
   * client's connection (a Request's signal): closed before the batch
   * leaves, the visit is not counted.
   */
  visit(code: string, visitor?: SeenVisitor, client?: AbortSignal): Promise<CountedVisit<Destination> | null> {
    if (client?.aborted) return Promise.reject(ClientClosedRequest.gone());
    if (this.waiting >= this.maxWaiting) return Promise.reject(ServiceUnavailable.backlogFull("the database"));
    return new Promise((resolve, reject) => {
      let entry = this.pending.get(code);
      if (!entry) {
        entry = { count: 0, visitors: new Map(), waiters: [], since: this.now() };
        this.pending.set(code, entry);
      }
      entry.count++;
      let key: string | undefined;
      if (this.describe) {
        // Every visit of an analysed batch has a visitor, or the breakdowns would fall behind the count.
        visitor ??= unknownVisitor;
        key = visitorKey(visitor);
        const seen = entry.visitors.get(key);
        if (seen) seen.count++;
        else entry.visitors.set(key, { visitor, count: 1 });
      }
      entry.waiters.push({ resolve, reject, client, visitorKey: key });
      this.waiting++;
      this.schedule();
    });
  }

  /** Resolves when every visit taken so far has been written or has failed (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.scheduled || this.flushing) {
      await (this.flushing ?? Bun.sleep(1));
    }
    await this.unlockedSibling?.drain();
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // setImmediate rather than a microtask: it lets every request that
    // arrived in this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      // Cleared once the flush has settled, not inside it: a flush whose every visit
      // is refused before any write finishes in this very call, before the assignment.
      this.flushing = this.flushUntilEmpty().finally(() => {
        this.flushing = null;
        if (this.pending.size > 0) this.schedule();
      });
    });
  }

  private async flushUntilEmpty(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = this.takeBatch();
      if (batch.size === 0) continue;
      const startedAt = this.now();
      let total = 0;
      for (const entry of batch.values()) total += entry.count;
      try {
        const visits = new Map([...batch].map(([code, entry]) => [code, this.linkVisits(entry)]));
        const claims = await withDatabaseDeadline(this.timeoutMs, (deadline) => this.store.recordVisits(visits, this.clock(), deadline, this.access));
        let counted = 0;
        for (const claim of claims.values()) counted += claim.granted;
        this.observer?.written({ visits: total, counted, seconds: (this.now() - startedAt) / 1000 });
        for (const [code, entry] of batch) this.settleClaim(entry, claims.get(code));
      } catch (error) {
        this.observer?.failed({ visits: total, seconds: (this.now() - startedAt) / 1000 });
        // Nothing of this batch was committed (or, past the deadline, will be); its callers answer with an error.
        for (const entry of batch.values()) this.settle(entry, (waiter) => waiter.reject(error));
      }
    }
  }

  /** What a code's pending visits add to its link; each distinct visitor classified once. */
  private linkVisits(entry: PendingCode<Destination>): LinkVisits {
    if (!this.describe || entry.visitors.size === 0) return LinkVisits.counting(entry.count);
    const visits = new LinkVisits();
    for (const seen of entry.visitors.values()) visits.add((seen.facts = this.describe(seen.visitor)), seen.count);
    return visits;
  }

  /**
   * The next batch; codes that already waited past the deadline fail here,
   * unsent, and visits whose client has gone are taken out of it.
   */
  private takeBatch(): Map<string, PendingCode<Destination>> {
    const batch = new Map<string, PendingCode<Destination>>();
    const now = this.now();
    for (const [code, entry] of this.pending) {
      if (batch.size === this.maxCodesPerBatch) break;
      this.pending.delete(code);
      if (now - entry.since >= this.timeoutMs) this.settle(entry, (waiter) => waiter.reject(new DatabaseTimeout(this.timeoutMs)));
      else if (this.withoutAbandoned(entry).count > 0) batch.set(code, entry);
    }
    return batch;
  }

  /** `entry` less the visits whose client's connection has closed: each is refused, uncounted. */
  private withoutAbandoned(entry: PendingCode<Destination>): PendingCode<Destination> {
    if (!entry.waiters.some((waiter) => waiter.client?.aborted)) return entry;
    const staying: Waiter<Destination>[] = [];
    for (const waiter of entry.waiters) {
      if (!waiter.client?.aborted) {
        staying.push(waiter);
        continue;
      }
      entry.count--;
      this.waiting--;
      if (waiter.visitorKey !== undefined) {
        const seen = entry.visitors.get(waiter.visitorKey);
        if (seen && --seen.count === 0) entry.visitors.delete(waiter.visitorKey);
      }
      waiter.reject(ClientClosedRequest.gone());
    }
    entry.waiters = staying;
    return entry;
  }

  /**
   * Answers a code's visits with what the write made of them. When it let
   * only some through (a cap), those are the first `granted` in the order
   * LinkVisits.first takes them: visitor by visitor, as `linkVisits` added
   * them, so the visits counted are the visits whose analytics were written.
   */
  private settleClaim(entry: PendingCode<Destination>, claim: VisitClaim<Destination> | undefined): void {
    if (!claim) {
      this.settle(entry, (waiter) => waiter.resolve(null));
      return;
    }
    const { destination, granted } = claim;
    const factsOf = (waiter: Waiter<Destination>) => (waiter.visitorKey === undefined ? undefined : entry.visitors.get(waiter.visitorKey)?.facts);
    if (granted >= entry.count) {
      this.settle(entry, (waiter) => waiter.resolve({ destination, through: true, facts: factsOf(waiter) }));
      return;
    }
    let left = granted;
    const quota = new Map<string, number>();
    if (this.describe && entry.visitors.size > 0) {
      for (const [key, seen] of entry.visitors) {
        quota.set(key, Math.min(seen.count, left));
        left -= quota.get(key)!;
      }
    }
    this.settle(entry, (waiter) => {
      let through: boolean;
      if (waiter.visitorKey === undefined) through = left-- > 0;
      else {
        const own = quota.get(waiter.visitorKey) ?? 0;
        through = own > 0;
        if (through) quota.set(waiter.visitorKey, own - 1);
      }
      waiter.resolve({ destination, through, facts: factsOf(waiter) });
    });
  }

  private settle(entry: PendingCode<Destination>, answer: (waiter: Waiter<Destination>) => void): void {
    this.waiting -= entry.waiters.length;
    for (const waiter of entry.waiters) answer(waiter);
  }
}
