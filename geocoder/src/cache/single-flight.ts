/**
 * Concurrent calls with the same key share one run of `fn`: a burst of
 * identical cache misses makes one provider call, not one per request. The
 * entry goes as soon as that run settles, so a failure is not remembered and
 * the next call tries again; caching results is the cache's job, not this.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  /** `onJoin`: told each time a call shares a run already in flight (the metrics). */
  constructor(private readonly options: { onJoin?: () => void } = {}) {}

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) {
      this.options.onJoin?.();
      return running;
    }
    let promise: Promise<T>;
    try {
      promise = fn();
    } catch (error) {
      // A synchronous throw settles like a rejection, for every waiter alike.
      promise = Promise.reject(error);
    }
    this.inFlight.set(key, promise);
    const forget = () => {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    };
    // Registered before any waiter's own handlers, so it runs first: a waiter
    // that retries on failure already starts a fresh run. Both arms handle the
    // rejection here; each waiter still gets it from the promise it holds.
    promise.then(forget, forget);
    return promise;
  }

  /** Keys with a run in flight. */
  get size(): number {
    return this.inFlight.size;
  }
}
