import type { HealthState, Transition } from "./health-rules.ts";

/**
 * Where the health of providers is kept, by provider name: in this process
 * (MemoryHealthStore), or in Redis for every replica (RedisHealthStore).
 */
export interface HealthStore {
  /** The provider's state; `healthyState` when nothing is known. */
  read(provider: string): Promise<HealthState>;
  /**
   * Applies `transition` to the provider's state as one atomic step against
   * every other writer of the store, keeps the state it returns, and
   * resolves with its result. `transition` must be pure: a store may run it
   * again on a newer state when another writer came first. `now` (ms since
   * the epoch) dates the write, for how long the state is kept.
   */
  update<T>(provider: string, transition: (state: HealthState) => Transition<T>, now: number): Promise<T>;
}
