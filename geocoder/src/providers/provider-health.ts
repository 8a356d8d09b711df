import { HealthRules, type Admission, type HealthChange, type HealthState, type Transition } from "../health/health-rules.ts";
import type { HealthStore } from "../health/health-store.ts";
import { MemoryHealthStore } from "../health/memory-health-store.ts";
import type { ProviderFailure } from "./provider-error.ts";

export { providerHealthDefaults, type Admission, type HealthChange } from "../health/health-rules.ts";

export interface ProviderHealthOptions {
  /** The provider's name: its key in the store. */
  provider?: string;
  /**
   * Where the state is kept: in this process (the default, a store of its
   * own), or a RedisHealthStore shared by every replica.
   */
  store?: HealthStore;
  /** Failures in a row that take the provider out of rotation. Default 3. */
  failureThreshold?: number;
  /** How long it stays out before one trial request is let through. Default 30 s. */
  openMs?: number;
  clock?: () => Date;
}

/**
 * Whether one provider is in rotation: the rules of HealthRules (a 429's
 * cooldown, a breaker with one trial request) applied to the provider's
 * state in a store. With the Redis store, what one replica learns keeps
 * every replica away.
 */
export class ProviderHealth {
  private readonly provider: string;
  private readonly store: HealthStore;
  private readonly rules: HealthRules;
  private readonly clock: () => Date;

  constructor(options: ProviderHealthOptions = {}) {
    this.provider = options.provider ?? "provider";
    this.store = options.store ?? new MemoryHealthStore();
    this.rules = new HealthRules(options);
    this.clock = options.clock ?? (() => new Date());
  }

  /** Whether a call would be admitted now; asks without taking the trial. */
  async available(now: Date = this.clock()): Promise<boolean> {
    return this.rules.refusal(await this.store.read(this.provider), now.getTime()) === undefined;
  }

  /** When it may be tried again, if it may not be now (undefined while a trial is in flight). */
  async retryAt(now: Date = this.clock()): Promise<Date | undefined> {
    return this.rules.refusal(await this.store.read(this.provider), now.getTime())?.retryAt;
  }

  /** Admits a call, or says why not. A call admitted as the trial must end in a record or a release. */
  admit(now: Date = this.clock()): Promise<Admission> {
    const at = now.getTime();
    return this.apply((state) => this.rules.admit(state, at), at);
  }

  /** It answered 429: out of rotation until `until` (the later one wins when asked twice). */
  coolDownUntil(until: Date, now: Date = this.clock()): Promise<void> {
    return this.apply((state) => this.rules.coolDownUntil(state, until.getTime()), now.getTime());
  }

  /** An answer: any success is proof it works, so it also closes an open breaker. */
  recordSuccess(now: Date = this.clock()): Promise<HealthChange> {
    return this.apply((state) => this.rules.recordSuccess(state), now.getTime());
  }

  /** A failure that says the provider is unwell (timeout, unreachable, 5xx, bad body, refused key). */
  recordFailure(failure: ProviderFailure, now: Date = this.clock()): Promise<HealthChange> {
    const at = now.getTime();
    return this.apply((state) => this.rules.recordFailure(state, failure, at), at);
  }

  /** A call that ended saying nothing about health (a 4xx, our own limit, the caller cancelling). */
  release(admission: Admission, now: Date = this.clock()): Promise<void> {
    return this.apply((state) => this.rules.release(state, admission), now.getTime());
  }

  private apply<T>(transition: (state: HealthState) => Transition<T>, at: number): Promise<T> {
    return this.store.update(this.provider, transition, at);
  }
}
