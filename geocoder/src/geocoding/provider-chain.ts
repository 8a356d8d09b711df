import { describeError, type Logger } from "@linkgeo/shared";
import { ProviderError } from "../providers/provider-error.ts";
import type { Provider, ReverseOptions } from "../providers/provider.ts";
import { ChainDeadline } from "./chain-deadline.ts";
import { ProvidersFailed, RateLimited } from "./geocode-errors.ts";
import type { GeocoderObserver } from "./reverse-geocoder.ts";

/** What the chain answered: the first provider's result, who gave it, and whether an offline one stood in. */
export interface ChainResult<T> {
  result: T;
  provider: string;
  fallback: boolean;
}

/** One question put to one provider (its reverse or its forward search). */
export type ProviderCall<T> = (provider: Provider, signal: AbortSignal | undefined, options: ReverseOptions | undefined) => Promise<T>;

/** A point of a patient pass that was stopped before its answer: it is still to be asked. */
export class NotAsked extends Error {
  constructor() {
    super("the pass was stopped before this point was answered");
    this.name = "NotAsked";
  }
}

/**
 * Down the chain, the first answer wins: the one rule of how providers are
 * asked, for reverse and forward geocoding alike. A pass has a time budget
 * (a ChainDeadline); when it runs out, the network provider in flight is
 * aborted (which says nothing about its health), the network providers after
 * it are not asked, and offline ones (LOCAL) still are. An offline answer
 * after a network provider did not answer is a fallback.
 */
export class ProviderChain {
  constructor(
    private readonly chainTimeoutMs: number,
    private readonly clock: () => Date,
    private readonly log: Logger,
    private readonly observer: GeocoderObserver | undefined,
  ) {
    if (!(Number.isFinite(chainTimeoutMs) && chainTimeoutMs > 0)) throw new RangeError(`chainTimeoutMs must be a positive number, got ${chainTimeoutMs}`);
  }

  /**
   * `deadline`: a batch's budget, or a patient point's, else the pass has its
   * own. `slotWaitMs`: how long a network provider may wait for a spare slot
   * of our rate limit (a job's patience). `stop`: a patient pass stopped:
   * NotAsked rather than the next provider.
   */
  async ask<T>(
    chain: readonly Provider[],
    call: ProviderCall<T>,
    { deadline: given, slotWaitMs, stop }: { deadline?: ChainDeadline; slotWaitMs?: number; stop?: AbortSignal } = {},
  ): Promise<ChainResult<T>> {
    using own = given ? undefined : new ChainDeadline(this.chainTimeoutMs);
    const deadline = given ?? own!;
    const failures: ProviderError[] = [];
    let networkMissed = false;
    for (const provider of chain) {
      if (stop?.aborted) throw new NotAsked();
      if (!provider.offline && deadline.passed) {
        // Listed, so a 502 names every provider of the chain.
        failures.push(new ProviderError(provider.name, "timeout", `not asked: the chain's ${deadline.budgetMs} ms were used up`));
        networkMissed = true;
        continue;
      }
      const startedAt = performance.now();
      try {
        // Each network provider gets at most the time left; an offline one needs no deadline.
        const signal = provider.offline ? undefined : stop ? AbortSignal.any([deadline.signal, stop]) : deadline.signal;
        const result = await call(provider, signal, slotWaitMs === undefined ? undefined : { slotWaitMs });
        this.observer?.providerCalled(provider.name, "ok", (performance.now() - startedAt) / 1000);
        return { result, provider: provider.name, fallback: provider.offline && networkMissed };
      } catch (error) {
        if (stop?.aborted) throw new NotAsked();
        const failure = this.failureFrom(provider, error, deadline);
        this.observer?.providerCalled(provider.name, failure.failure, (performance.now() - startedAt) / 1000);
        failures.push(failure);
        if (!provider.offline) networkMissed = true;
      }
    }
    throw this.failureOf(failures);
  }

  private failureFrom(provider: Provider, error: unknown, deadline: ChainDeadline): ProviderError {
    if (error instanceof ProviderError) return error;
    if (deadline.aborted(error)) {
      this.log.debug("provider chain out of time", { provider: provider.name, budget_ms: deadline.budgetMs });
      return new ProviderError(provider.name, "timeout", `no answer within what was left of the chain's ${deadline.budgetMs} ms`);
    }
    this.log.error("provider adapter failed unexpectedly", { provider: provider.name, error: describeError(error) });
    return new ProviderError(provider.name, "bad_response", "unexpected failure");
  }

  /** 429 when every provider only asked us to wait; 502 otherwise. */
  private failureOf(failures: ProviderError[]): Error {
    const waits = failures.map((failure) => failure.retryAt);
    const onlyWaiting = failures.every((f) => (f.failure === "rate_limited" || f.failure === "cooling_down") && f.retryAt);
    if (onlyWaiting && failures.some((f) => f.failure === "rate_limited")) {
      const soonest = new Date(Math.min(...waits.map((date) => date!.getTime())));
      return RateLimited.until(soonest, this.clock(), failures);
    }
    return ProvidersFailed.from(failures);
  }
}
