import type { ProviderFailure } from "./provider-failure.ts";

/**
 * One provider's health, as kept by a HealthStore: plain JSON, so that
 * replicas can share it through Redis. Times are ms since the epoch on the
 * clock of the replica that wrote them.
 */
export interface HealthState {
  /** Failures in a row, counted up to the threshold (beyond it, a count says nothing new). */
  failures: number;
  /** The failure that last counted, for the reason shown to clients. */
  lastFailure: ProviderFailure | null;
  /** While the breaker is open: until when no call goes through. Null while closed. */
  openUntil: number | null;
  /** When the trial request in flight was let through; null when none is. */
  trialSince: number | null;
  /** It answered 429: out of rotation until then (0: never asked us to wait). */
  waitUntil: number;
}

/** A provider nothing is known against: what a store holds when it holds nothing. */
export const healthyState: Readonly<HealthState> = Object.freeze({ failures: 0, lastFailure: null, openUntil: null, trialSince: null, waitUntil: 0 });

/** Whether a call may go to the provider now. */
export type Admission =
  | { admitted: true; trial: false }
  | {
      admitted: true;
      /** The one request let through to see whether a failing provider is back. */
      trial: true;
      /** When it was let through: releasing it frees the trial only if it is still this one. */
      since: Date;
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

export type Refusal = Extract<Admission, { admitted: false }>;

/** A change worth a log line. */
export type HealthChange = "opened" | "closed" | undefined;

/** A rule applied to a state: the state after it (the same object when nothing changed) and what the caller learns. */
export interface Transition<T> {
  state: HealthState;
  result: T;
}

export const providerHealthDefaults = { failureThreshold: 3, openMs: 30_000 } as const;

/**
 * The rules of a provider's health, and their only owner: pure functions
 * from a state (and the time) to the next state, so the in-process store
 * and the Redis store apply the very same rules. A rule that changes
 * nothing returns the state it was given, which spares a store the write.
 *
 * Two independent reasons take a provider out of rotation:
 *
 * - it asked us to wait (429 with Retry-After): out until then;
 * - a breaker: `failureThreshold` failures in a row take it out for
 *   `openMs`; then one trial request goes through (the others are still
 *   refused); its success closes the breaker, its failure reopens it.
 *
 * Only failures that say the provider is unwell are recorded (the caller
 * decides which); neutral outcomes `release` their admission.
 */
export class HealthRules {
  readonly failureThreshold: number;
  readonly openMs: number;

  constructor(options: { failureThreshold?: number; openMs?: number } = {}) {
    this.failureThreshold = options.failureThreshold ?? providerHealthDefaults.failureThreshold;
    this.openMs = options.openMs ?? providerHealthDefaults.openMs;
    if (!(Number.isInteger(this.failureThreshold) && this.failureThreshold >= 1))
      throw new RangeError(`failureThreshold must be a whole number from 1, got ${this.failureThreshold}`);
    if (!(Number.isFinite(this.openMs) && this.openMs > 0)) throw new RangeError(`openMs must be a positive number, got ${this.openMs}`);
  }

  /** Why a call would be refused at `at`, or undefined when it would be admitted. */
  refusal(state: HealthState, at: number): Refusal | undefined {
    const lastFailure = state.lastFailure ?? undefined;
    const openUntil = state.openUntil;
    if (at < state.waitUntil) {
      const retryAt = Math.max(state.waitUntil, openUntil ?? 0);
      return { admitted: false, why: "rate_limited", retryAt: new Date(retryAt), lastFailure };
    }
    if (openUntil === null) return undefined;
    if (at < openUntil) return { admitted: false, why: "failing", retryAt: new Date(openUntil), lastFailure };
    // A trial that never reported back (a bug, a lost promise, a replica that
    // died) must not keep the provider out forever: after another `openMs`,
    // let a new one through.
    if (state.trialSince !== null && at - state.trialSince < this.openMs) {
      return { admitted: false, why: "failing", retryAt: undefined, lastFailure };
    }
    return undefined;
  }

  /** Admits a call, or says why not. A call admitted as the trial must end in a record or a release. */
  admit(state: HealthState, at: number): Transition<Admission> {
    const refusal = this.refusal(state, at);
    if (refusal) return { state, result: refusal };
    if (state.openUntil === null) return { state, result: { admitted: true, trial: false } };
    return { state: { ...state, trialSince: at }, result: { admitted: true, trial: true, since: new Date(at) } };
  }

  /** It answered 429: out of rotation until `until` (the later one wins when asked twice). */
  coolDownUntil(state: HealthState, until: number): Transition<void> {
    if (until <= state.waitUntil) return { state, result: undefined };
    return { state: { ...state, waitUntil: until }, result: undefined };
  }

  /** An answer: any success is proof it works, so it also closes an open breaker. */
  recordSuccess(state: HealthState): Transition<HealthChange> {
    if (state.failures === 0 && state.lastFailure === null && state.openUntil === null && state.trialSince === null) return { state, result: undefined };
    const next = { ...state, failures: 0, lastFailure: null, openUntil: null, trialSince: null };
    return { state: next, result: state.openUntil === null ? undefined : "closed" };
  }

  /** A failure that says the provider is unwell (timeout, unreachable, 5xx, bad body, refused key). */
  recordFailure(state: HealthState, failure: ProviderFailure, at: number): Transition<HealthChange> {
    const failures = Math.min(state.failures + 1, this.failureThreshold);
    const counted = failures === state.failures && failure === state.lastFailure ? state : { ...state, failures, lastFailure: failure };
    if (state.openUntil === null) {
      if (failures < this.failureThreshold) return { state: counted, result: undefined };
      return { state: { ...counted, openUntil: at + this.openMs }, result: "opened" };
    }
    // While fully open, a late failure from a call admitted earlier changes
    // nothing but the reason; once the wait is over (trial or not), a
    // failure starts another wait.
    if (at < state.openUntil) return { state: counted, result: undefined };
    return { state: { ...counted, openUntil: at + this.openMs, trialSince: null }, result: "opened" };
  }

  /** A call that ended saying nothing about health (a 4xx, our own limit, the caller cancelling). */
  release(state: HealthState, admission: Admission): Transition<void> {
    if (!(admission.admitted && admission.trial) || state.trialSince !== admission.since.getTime()) return { state, result: undefined };
    return { state: { ...state, trialSince: null }, result: undefined };
  }
}

/** Whether `state` says nothing at all: a store need not keep it. */
export function isHealthy(state: HealthState): boolean {
  return state.failures === 0 && state.lastFailure === null && state.openUntil === null && state.trialSince === null && state.waitUntil === 0;
}
