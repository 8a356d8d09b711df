/**
 * Where the threat recheck keeps its one row (threat-recheck.ts): a lease,
 * so that one replica of a cluster runs the pass at a time, and a cursor,
 * so that a pass stopped midway (a replica killed) goes on where it was.
 * The stores of both engines implement it.
 */
export interface RecheckStore {
  /**
   * Takes the pass for `holder` until `leaseUntil` if it is due (its next run
   * has come, or a pass stopped midway) and no other holder's lease runs at
   * `now`: the key to go on after (null: from the first link); undefined when
   * not taken.
   */
  claim(holder: string, now: Date, leaseUntil: Date): Promise<{ cursor: string | null } | undefined>;
  /** Keeps the pass's progress and renews the lease; false when `holder` no longer holds it. */
  advance(holder: string, cursor: string, leaseUntil: Date): Promise<boolean>;
  /** Ends the pass: no cursor, the next one due at `nextRunAt`, the lease let go. */
  finish(holder: string, nextRunAt: Date): Promise<void>;
}
