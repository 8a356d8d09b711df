import { describeError, type Logger } from "@linkgeo/shared";
import { otherValue } from "./named-values.ts";
import { orphanKinds, type OrphanCount, type OrphanKind, type OrphanVisitStore } from "./orphan-visit-store.ts";
import { referrerHost } from "./referrer-host.ts";
import { UserAgentClassifier } from "./user-agent-classifier.ts";
import { utcDay } from "./visit-range.ts";

/**
 * What a visit that led nowhere said of its visitor, as it said it. Only
 * the Referer's host, and whether the User-Agent is a bot's, are kept; the
 * headers themselves are dropped at once.
 */
export interface OrphanVisitor {
  userAgent: string | null;
  referer: string | null;
}

export interface OrphanVisitsDeps {
  store: Pick<OrphanVisitStore, "add">;
  clock: () => Date;
  log: Logger;
  /** Tells bots from people (isbot, as for link visits). Default: one of its own remembering 1,000 User-Agents. */
  userAgents?: Pick<UserAgentClassifier, "classify">;
  /** Distinct (day, domain, kind, referrer) counts held until the next write; past it new referrers are counted as "other". Default 1,000. */
  maxKeys?: number;
  /** How long a count waits for its write, in ms. Default 1,000. */
  everyMs?: number;
}

const keyOf = (day: string, domainId: number, kind: OrphanKind, referrer: string) => `${day}\n${domainId}\n${kind}\n${referrer}`;

/**
 * Counts visits that led nowhere: a code no link has (`unknown`), a link
 * past its expiry (`expired`) or its visit cap (`exhausted`), a wrong
 * password (`password`). `record` is for the redirect path: synchronous,
 * it never throws and never waits on the database. It adds the visit to a
 * count in memory per UTC day, domain, kind and referrer host, humans and bots
 * apart; a write a second later (and `drain()` at shutdown) sends every
 * count held, one write at a time, and counts recorded meanwhile go into
 * the next one.
 *
 * Bounded: at most `maxKeys` counts are held, then a new referrer is
 * counted as "other" (one more count per day, domain and kind at most:
 * domains are the operator's). A write
 * that fails (database down, past its deadline) is logged, with how many
 * visits it held and nothing of them, and dropped: these are analytics,
 * and a backlog kept for a database that is away would only grow. (A
 * Postgres write past its deadline is not cancelled and may still commit:
 * then its visits count once after all, never twice.) Unlike
 * a link's visits, these are not durable when the redirect answers; a
 * process killed without its graceful shutdown loses the last second.
 */
export class OrphanVisits {
  private pending = new Map<string, OrphanCount>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private readonly store: Pick<OrphanVisitStore, "add">;
  private readonly clock: () => Date;
  private readonly log: Logger;
  private readonly userAgents: Pick<UserAgentClassifier, "classify">;
  private readonly maxKeys: number;
  private readonly everyMs: number;

  constructor(deps: OrphanVisitsDeps) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.log = deps.log;
    this.userAgents = deps.userAgents ?? new UserAgentClassifier({ cacheSize: 1_000 });
    this.maxKeys = deps.maxKeys ?? 1_000;
    this.everyMs = deps.everyMs ?? 1_000;
  }

  /** Counts one visit that led nowhere, of `kind`, on the domain of id `domainId` (the host asked), from `visitor`. */
  record(kind: OrphanKind, domainId: number, visitor: OrphanVisitor): void {
    try {
      // A kind from untyped code would be a row no report reads.
      if (!orphanKinds.includes(kind)) return;
      const count = this.countFor(utcDay(this.clock()), domainId, kind, referrerHost(visitor.referer));
      if (this.userAgents.classify(visitor.userAgent).bot) count.bots++;
      else count.humans++;
      this.schedule();
    } catch (error) {
      // The redirect answers whatever happens here.
      this.log.warn("a visit that led nowhere was not counted", { error: describeError(error) });
    }
  }

  /** Resolves once every visit recorded so far has been written or dropped (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.writing || this.pending.size > 0) await this.write();
  }

  /** Counts held in memory, waiting for their write. */
  get pendingCount(): number {
    return this.pending.size;
  }

  private countFor(day: string, domainId: number, kind: OrphanKind, referrer: string): OrphanCount {
    const held = this.pending.get(keyOf(day, domainId, kind, referrer));
    if (held) return held;
    const named = this.pending.size < this.maxKeys ? referrer : otherValue;
    const key = keyOf(day, domainId, kind, named);
    let count = this.pending.get(key);
    if (!count) {
      count = { day, domainId, kind, referrer: named, humans: 0, bots: 0 };
      this.pending.set(key, count);
    }
    return count;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, this.everyMs);
    // Pending counts alone must not keep the process alive: shutdown drains them.
    this.timer.unref();
  }

  /** Writes every count held, as one batch; while a write is in flight, resolves with it. */
  private write(): Promise<void> {
    if (this.writing) return this.writing;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return Promise.resolve();
    const batch = [...this.pending.values()];
    this.pending = new Map();
    // async: a store that throws at once fails this promise, not the caller.
    const written = (async () => this.store.add(batch))().catch((error: unknown) => {
      const visits = batch.reduce((sum, count) => sum + count.humans + count.bots, 0);
      this.log.warn("visits that led nowhere were not written, and are dropped", { visits, error: describeError(error) });
    });
    this.writing = written.finally(() => {
      this.writing = undefined;
      if (this.pending.size > 0) this.schedule();
    });
    return this.writing;
  }
}
