import { healthyState, isHealthy, type HealthState, type Transition } from "./health-rules.ts";
import type { HealthStore } from "./health-store.ts";

/**
 * Provider health within one process: each replica finds out for itself.
 * Used without REDIS_URL (a single instance), and as the Redis store's
 * fallback while Redis is down. One entry per provider that is not
 * healthy, so the map never needs pruning.
 */
export class MemoryHealthStore implements HealthStore {
  private readonly states = new Map<string, HealthState>();

  async read(provider: string): Promise<HealthState> {
    return this.states.get(provider) ?? healthyState;
  }

  async update<T>(provider: string, transition: (state: HealthState) => Transition<T>): Promise<T> {
    // Synchronous from read to write: nothing else runs in between.
    const current = this.states.get(provider) ?? healthyState;
    const { state, result } = transition(current);
    if (state === current) return result;
    if (isHealthy(state)) this.states.delete(provider);
    else this.states.set(provider, state);
    return result;
  }
}
