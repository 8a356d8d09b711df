import { describeError, silentLogger, withDeadline, type Logger } from "@linkgeo/shared";
import type { Sql } from "postgres";

/** DATABASE_READ_MAX_LAG_MS when unset. */
export const defaultReadMaxLagMs = 1_000;

/** What the watch knows of one replica: usable, behind by more than the bound (or not known yet), or not answering. */
export type ReplicaState = "ok" | "lagging" | "down";

export interface ReadReplica<Stores> {
  /** `read-replica-1`…: the place in DATABASE_READ_URL; never the URL, which may hold a password. */
  name: string;
  stores: Stores;
  state: ReplicaState;
  /** How far behind the primary it was at the last look, in ms (0 when it had replayed all the primary had written). */
  lagMs: number;
  /** When a look last judged it (the watch's clock). */
  judgedAt: number;
}

export interface ReadReplicasOptions {
  /** A replica further behind than this is skipped (DATABASE_READ_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the primary and each replica are asked where they are. Default: a quarter of the bound, from 50 to 250 ms. */
  pollMs?: number;
  /** The deadline of each of those questions. Default 1 s. */
  timeoutMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
  log?: Logger;
}

/** A position in the write-ahead log, `16/B374D848`, as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

interface Sample {
  at: number;
  lsn: bigint;
}

/** The watch's own connections: one to the primary, one to each replica, so busy pools never delay a look. */
export interface WatchConnections {
  primary: Sql;
  replicas: Sql[];
}

/**
 * Which Postgres streaming replicas may answer reads now (DATABASE_READ_URL).
 *
 * The lag is measured in the primary's own terms, not by replay timestamps
 * (which stand still while nothing is written): every `pollMs` the primary
 * is asked how far its log has gone (`pg_current_wal_lsn()`) and, at the same
 * time, each replica how far it has replayed (`pg_last_wal_replay_lsn()`).
 * A replica is behind by the time since the primary first had a position
 * the replica has not replayed; a replica that has not replayed even the
 * oldest position kept (a bound and a look ago, or the first look's) is
 * behind by an unknown time and counted as lagging. Past `maxLagMs`, not
 * answering, not in recovery (a promoted server, or a primary's URL), or
 * the copy of another cluster (its system identifier differs), a replica is
 * skipped until a later look finds it fit; a verdict older than two looks
 * (the watch stuck on a hung server) is not trusted either. So a replica's
 * answer is at most `maxLagMs` plus two looks older than the primary's.
 */
export class ReadReplicas<Stores> {
  readonly replicas: ReadReplica<Stores>[];
  private readonly maxLagMs: number;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly log: Logger;
  /** The primary's positions, oldest first, over the last bound and a look. */
  private samples: Sample[] = [];
  private primarySystem: string | undefined;
  private next = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly watch: WatchConnections,
    stores: readonly Stores[],
    options: ReadReplicasOptions,
  ) {
    this.maxLagMs = options.maxLagMs;
    this.pollMs = options.pollMs ?? Math.max(50, Math.min(250, Math.floor(options.maxLagMs / 4)));
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? silentLogger;
    this.replicas = stores.map((replicaStores, i) => ({
      name: `read-replica-${i + 1}`,
      stores: replicaStores,
      // Not looked at yet.
      state: "lagging",
      lagMs: Number.POSITIVE_INFINITY,
      judgedAt: Number.NEGATIVE_INFINITY,
    }));
  }

  /** Looks now, then every `pollMs` until `stop()`. */
  start(): void {
    const loop = async () => {
      await this.look();
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.pollMs);
      this.timer.unref?.();
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Whether `replica` may answer a read now. */
  fit(replica: ReadReplica<Stores>): boolean {
    return replica.state === "ok" && this.now() - replica.judgedAt <= 2 * this.pollMs + this.timeoutMs;
  }

  /** The next fit replica in turn, or undefined: the primary answers. */
  pick(): ReadReplica<Stores> | undefined {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (this.fit(replica)) return replica;
    }
    return undefined;
  }

  /** A read on it failed for want of a connection: skipped until a look finds it fit again. */
  failed(replica: ReadReplica<Stores>, error: unknown): void {
    this.judge(replica, "down", Number.POSITIVE_INFINITY, error);
  }

  /** Asks the primary and every replica where they are, all at once, and judges each replica. */
  async look(): Promise<void> {
    const asked = this.now();
    const [primary, ...replicas] = await Promise.all([
      this.ask(
        () => this.watch.primary<Position[]>`SELECT pg_current_wal_lsn()::text AS lsn, (SELECT system_identifier::text FROM pg_control_system()) AS system`,
      ),
      ...this.watch.replicas.map((sql) =>
        this.ask(
          () => sql<Position[]>`
            SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovering,
              (SELECT system_identifier::text FROM pg_control_system()) AS system`,
        ),
      ),
    ]);
    if (primary?.[0]?.lsn) {
      this.samples.push({ at: asked, lsn: parseLsn(primary[0].lsn) });
      this.primarySystem = primary[0].system;
    }
    // Keep the newest sample older than the bound: what a fit replica must have replayed.
    const horizon = this.now() - this.maxLagMs - this.pollMs;
    while (this.samples.length > 1 && this.samples[1]!.at <= horizon) this.samples.shift();

    for (const [i, rows] of replicas.entries()) {
      const { state, lagMs, reason } = this.verdict(rows?.[0]);
      this.judge(this.replicas[i]!, state, lagMs, reason);
    }
  }

  /** What a replica's answer to a look (undefined: none) says of it. */
  private verdict(row: Position | undefined): { state: ReplicaState; lagMs: number; reason?: string } {
    const unknown = Number.POSITIVE_INFINITY;
    if (!row) return { state: "down", lagMs: unknown, reason: "no answer" };
    if (!row.recovering || row.lsn === null) return { state: "down", lagMs: unknown, reason: "not a replica (not in recovery)" };
    if (this.primarySystem !== undefined && row.system !== this.primarySystem) {
      return { state: "down", lagMs: unknown, reason: "a replica of another cluster (its system identifier differs)" };
    }
    if (this.samples.length === 0) return { state: "lagging", lagMs: unknown, reason: "the primary's position is not known yet" };
    const replayed = parseLsn(row.lsn);
    const firstUnreplayed = this.samples.findIndex((sample) => sample.lsn > replayed);
    if (firstUnreplayed === -1) return { state: "ok", lagMs: 0 };
    const lagMs = Math.max(0, this.now() - this.samples[firstUnreplayed]!.at);
    // Behind the oldest position kept: for longer than the samples tell.
    if (firstUnreplayed === 0) return { state: "lagging", lagMs, reason: "behind every position the watch kept" };
    return lagMs <= this.maxLagMs ? { state: "ok", lagMs } : { state: "lagging", lagMs, reason: `behind by more than ${this.maxLagMs} ms` };
  }

  private judge(replica: ReadReplica<Stores>, state: ReplicaState, lagMs: number, reason?: unknown): void {
    if (state !== replica.state && !this.stopped) {
      const fields = { replica: replica.name, was: replica.state, lag_ms: Number.isFinite(lagMs) ? Math.round(lagMs) : null };
      if (state === "ok") this.log.info("read replica answers reads", fields);
      else this.log.warn(`read replica skipped: ${state}`, { ...fields, reason: typeof reason === "string" ? reason : describeError(reason) });
    }
    replica.state = state;
    replica.lagMs = lagMs;
    replica.judgedAt = this.now();
  }

  private async ask<T>(question: () => Promise<T>): Promise<T | undefined> {
    try {
      return await withDeadline(this.timeoutMs, question, () => new Error(`no answer within ${this.timeoutMs} ms`));
    } catch {
      return undefined;
    }
  }
}

interface Position {
  lsn: string | null;
  recovering?: boolean;
  system: string;
}
