/**
 * Reads that wait out an outage by themselves: the service down or
 * restarting (the gateway's 502, 503 or 504) or the network gone (no
 * answer at all). The page says it is trying again, and when, and asks
 * again after growing pauses, at once when the browser comes back online,
 * so a person never has to reload it. Any other answer is the caller's.
 */
import { ApiError } from "./api.ts";

/** An answer that says the service cannot answer now, but may in a moment. */
export function isOutage(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504);
}

/** Seconds before the n-th try again (1-based): 2, 4, 8, 15, then every 30. */
export function retryDelaySeconds(attempt: number): number {
  return [2, 4, 8, 15][attempt - 1] ?? 30;
}

/** What a person is told while the page waits: the same words wherever it waits. */
export const outageWords = (seconds: number) => `The service is not answering; trying again in ${seconds} s…`;

export interface RetryOptions {
  /** Told before each pause, with its length in seconds. */
  waiting(seconds: number): void;
  /** Stops the waiting: the pause ends and the last error is thrown. */
  signal?: AbortSignal;
}

/** `read()`, asked again after each outage until it is answered or fails otherwise; throws that error. */
export async function untilAnswered<T>(read: () => Promise<T>, { waiting, signal }: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!isOutage(error) || signal?.aborted) throw error;
      const seconds = retryDelaySeconds(attempt);
      waiting(seconds);
      if (!(await pause(seconds * 1000, signal))) throw error;
    }
  }
}

/** Waits `ms`, or less if the browser comes back online; false when `signal` stopped it. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (again: boolean) => {
      clearTimeout(timer);
      window.removeEventListener("online", early);
      signal?.removeEventListener("abort", stopped);
      resolve(again);
    };
    const early = () => done(true);
    const stopped = () => done(false);
    const timer = setTimeout(early, ms);
    window.addEventListener("online", early);
    signal?.addEventListener("abort", stopped);
  });
}
