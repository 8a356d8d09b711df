import { withDeadline } from "@linkgeo/shared";
import type { Sql } from "postgres";

/** DATABASE_READ_MAX_LAG_MS when unset. */
export const defaultReadMaxLagMs = 1_000;

/** What the watch knows of one replica: usable, behind by more than the bound, or not answering. */
export type ReplicaState = "ok" | "lagging" | "down";

export interface ReadReplica<Stores> {
  /** `read-replica-1`…: the place in DATABASE_READ_URL; never the URL, which may hold a password. */
  name: string;
  stores: Stores;
  state: ReplicaState;
  /** How far behind the primary it was at the last look, in ms (0 when it had replayed all the primary had written). */
  lagMs: number;
}

export interface ReadReplicasOptions {
  /** A replica further behind than this is skipped (DATABASE_READ_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the primary and each replica are asked where they are. Default: a quarter of the bound, at most 250 ms. */
  pollMs?: number;
  /** The deadline of each of those questions. Default 1 s. */
  timeoutMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
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

/**
 * Which Postgres streaming replicas may answer reads now (DATABASE_READ_URL).
 *
 * The lag is measured in the primary's own terms, not by replay timestamps
 * (which stand still while nothing is written): every `pollMs` the primary
 * is asked how far its log has gone (`pg_current_wal_lsn()`) and each
 * replica how far it has replayed (`pg_last_wal_replay_lsn()`). A replica is
 * behind by the time since the primary first had a position the replica has
 * not replayed; past `maxLagMs`, or not answering, or not in recovery (a
 * promoted or misnamed server), it is skipped until a later look finds it
 * fit. So a replica's answer is at most `maxLagMs + pollMs` older than the
 * primary's; a replica not yet looked at is not used.
 */
export class ReadReplicas<Stores> {
  readonly replicas: ReadReplica<Stores>[];
  private readonly maxLagMs: number;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /** The primary's positions, oldest first, over the last bound and a bit. */
  private samples: Sample[] = [];
  private readonly sqls: Sql[];
  private next = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly primary: Sql,
    replicas: ReadonlyArray<{ sql: Sql; stores: Stores }>,
    options: ReadReplicasOptions,
  ) {
    this.maxLagMs = options.maxLagMs;
    this.pollMs = options.pollMs ?? Math.max(10, Math.min(250, Math.floor(options.maxLagMs / 4)));
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.now = options.now ?? (() => performance.now());
    this.replicas = replicas.map(({ stores }, i) => ({ name: `read-replica-${i + 1}`, stores, state: "down", lagMs: Number.POSITIVE_INFINITY }));
    this.sqls = replicas.map(({ sql }) => sql);
  }

  /** Looks now, then every `pollMs` until `stop()`. */
  start(): void {
    const loop = async () => {
      await this.look();
      if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
      this.timer?.unref?.();
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** The next usable replica in turn, or undefined: the primary answers. */
  pick(): ReadReplica<Stores> | undefined {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (replica.state === "ok") return replica;
    }
    return undefined;
  }

  /** A read on it failed: skipped until a look finds it fit again. */
  failed(replica: ReadReplica<Stores>): void {
    replica.state = "down";
  }

  /** Asks the primary and every replica where they are, and judges each replica. */
  async look(): Promise<void> {
    const asked = this.now();
    const primary = await this.ask(() => this.primary<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`);
    if (primary) this.samples.push({ at: asked, lsn: parseLsn(primary[0]!.lsn) });
    // Keep the newest sample older than the bound: it is what a replica must have replayed.
    const horizon = this.now() - this.maxLagMs - this.pollMs;
    while (this.samples.length > 1 && this.samples[1]!.at <= horizon) this.samples.shift();

    await Promise.all(
      this.sqls.map(async (sql, i) => {
        const replica = this.replicas[i]!;
        const rows = await this.ask(
          () => sql<{ lsn: string | null; recovering: boolean }[]>`
          SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovering`,
        );
        const row = rows?.[0];
        if (!row?.recovering || row.lsn === null || this.samples.length === 0) {
          replica.state = "down";
          replica.lagMs = Number.POSITIVE_INFINITY;
          return;
        }
        const replayed = parseLsn(row.lsn);
        const firstUnreplayed = this.samples.find((sample) => sample.lsn > replayed);
        replica.lagMs = firstUnreplayed === undefined ? 0 : Math.max(0, this.now() - firstUnreplayed.at);
        replica.state = replica.lagMs <= this.maxLagMs ? "ok" : "lagging";
      }),
    );
  }

  private async ask<T>(question: () => Promise<T>): Promise<T | undefined> {
    try {
      return await withDeadline(this.timeoutMs, question, () => new Error(`no answer within ${this.timeoutMs} ms`));
    } catch {
      return undefined;
    }
  }
}
