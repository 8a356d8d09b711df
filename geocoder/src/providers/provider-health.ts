import type { ProviderFailure } from "./provider-error.ts";

export interface ProviderHealthOptions {
  /** Failures in a row that take the provider out of rotation. Default 3. */
  failureThreshold?: number;
  /** How long it stays out before one trial request is let through. Default 30 s. */
  openMs?: number;
  clock?: () => Date;
}

export const providerHealthDefaults = { failureThreshold: 3, openMs: 30_000 } as const;

/** Whether a call may go to the provider now. */
export type Admission =
  | {
      admitted: true;
      /** The one request let through to see whether a failing provider is back. */
      trial: boolean;
    }
  | {
      admitted: false;
      /** `rate_limited`: it answered 429 and asked us to wait; `failing`: the breaker is open. */
      why: "rate_limited" | "failing";
      /** When it may be tried again; unknown while a trial request is in flight. */
      retryAt: Date | undefined;
      /** The failure that last counted against it, for the reason shown to clients. */
      lastFailure: ProviderFailure | undefined;
    };

/** A change worth a log line. */
export type HealthChange = "opened" | "closed" | undefined;

/**
 * Whether one provider is in rotation. Two independent reasons take it out:
 *
 * - it asked us to wait (429 with Retry-After): out until then;
 * - a breaker: `failureThreshold` failures in a row take it out for
 *   `openMs`; then one trial request goes through (the others are still
 *   refused); its success closes the breaker, its failure reopens it.
 *
 * Only failures that say the provider is unwell are recorded (the caller
 * decides which); neutral outcomes `release` their admission. State is per
 * process: each replica finds out for itself.
 */
export class ProviderHealth {
  private readonly failureThreshold: number;
  private readonly openMs: number;
  private readonly clock: () => Date;
  private failuresInARow = 0;
  private lastFailure: ProviderFailure | undefined;
  /** Ms since the epoch; undefined while the breaker is closed. */
  private openUntil: number | undefined;
  /** When the trial request in flight was let through. */
  private trialSince: number | undefined;
  private waitUntil = 0;

  constructor(options: ProviderHealthOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? providerHealthDefaults.failureThreshold;
    this.openMs = options.openMs ?? providerHealthDefaults.openMs;
    this.clock = options.clock ?? (() => new Date());
  }

  /** Whether a call would be admitted now; asks without taking the trial. */
  available(now: Date = this.clock()): boolean {
    return this.refusal(now.getTime()) === undefined;
  }

  /** When it may be tried again, if it may not be now (undefined while a trial is in flight). */
  retryAt(now: Date = this.clock()): Date | undefined {
    const refusal = this.refusal(now.getTime());
    return refusal?.admitted === false ? refusal.retryAt : undefined;
  }

  /** Admits a call, or says why not. A call admitted as the trial must end in a record or a release. */
  admit(now: Date = this.clock()): Admission {
    const at = now.getTime();
    const refusal = this.refusal(at);
    if (refusal) return refusal;
    if (this.openUntil === undefined) return { admitted: true, trial: false };
    this.trialSince = at;
    return { admitted: true, trial: true };
  }

  /** It answered 429: out of rotation until `until` (the later one wins when asked twice). */
  coolDownUntil(until: Date): void {
    this.waitUntil = Math.max(this.waitUntil, until.getTime());
  }

  /** An answer: any success is proof it works, so it also closes an open breaker. */
  recordSuccess(): HealthChange {
    this.failuresInARow = 0;
    this.lastFailure = undefined;
    if (this.openUntil === undefined) return undefined;
    this.openUntil = undefined;
    this.trialSince = undefined;
    return "closed";
  }

  /** A failure that says the provider is unwell (timeout, unreachable, 5xx, bad body, refused key). */
  recordFailure(failure: ProviderFailure, now: Date = this.clock()): HealthChange {
    const at = now.getTime();
    this.failuresInARow++;
    this.lastFailure = failure;
    if (this.openUntil === undefined) {
      if (this.failuresInARow < this.failureThreshold) return undefined;
      this.openUntil = at + this.openMs;
      return "opened";
    }
    // While fully open, a late failure from a call admitted earlier changes nothing;
    // once the wait is over (trial or not), a failure starts another wait.
    if (at < this.openUntil) return undefined;
    this.openUntil = at + this.openMs;
    this.trialSince = undefined;
    return "opened";
  }

  /** A call that ended saying nothing about health (a 4xx, our own limit, the caller cancelling). */
  release(admission: Admission): void {
    if (admission.admitted && admission.trial) this.trialSince = undefined;
  }

  private refusal(at: number): Extract<Admission, { admitted: false }> | undefined {
    const lastFailure = this.lastFailure;
    const openUntil = this.openUntil;
    if (at < this.waitUntil) {
      const retryAt = Math.max(this.waitUntil, openUntil ?? 0);
      return { admitted: false, why: "rate_limited", retryAt: new Date(retryAt), lastFailure };
    }
    if (openUntil === undefined) return undefined;
    if (at < openUntil) return { admitted: false, why: "failing", retryAt: new Date(openUntil), lastFailure };
    // A trial that never reported back (a bug, a lost promise) must not keep
    // the provider out forever: after another `openMs`, let a new one through.
    if (this.trialSince !== undefined && at - this.trialSince < this.openMs) {
      return { admitted: false, why: "failing", retryAt: undefined, lastFailure };
    }
    return undefined;
  }
}
