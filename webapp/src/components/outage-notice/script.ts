import { findParts } from "../../client/lib/find-parts.ts";
import { isOutage, retryDelaySeconds } from "../../client/lib/outage-retry.ts";
import { outageParts } from "./parts.ts";

/**
 * The page's one place for "the service is down": each loader that fails
 * with an outage (lib/outage-retry.ts) hands it its retry, and the notice
 * asks again by itself, sooner at first and then every 30 s (the pauses of
 * lib/outage-retry.ts), until every loader has had its answer. The keys name what is retried ("links"), so a
 * loader that fails twice is retried once.
 */
export interface Outage {
  /** True when `error` is an outage: the notice shows and `retry` runs once the wait is over. False otherwise: `task` is settled. */
  retryLater(task: string, error: unknown, retry: () => unknown): boolean;
  /** `task` loaded: once nothing waits, the notice goes. */
  answered(task: string): void;
  /** Nothing to retry any more (signed out). */
  clear(): void;
}

export function mount(root: HTMLElement): Outage {
  const { outageMessage, outageTryNow } = findParts(root, outageParts);
  /** Failed, and asked again at the next try. */
  const waiting = new Map<string, () => unknown>();
  /** Asked again, not answered yet. */
  const trying = new Set<string>();
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function tryAgain(): void {
    clearTimeout(timer);
    timer = undefined;
    const retries = [...waiting];
    waiting.clear();
    for (const [task, retry] of retries) {
      trying.add(task);
      void retry();
    }
  }

  function settle(task: string): void {
    waiting.delete(task);
    trying.delete(task);
    if (waiting.size > 0 || trying.size > 0) return;
    clearTimeout(timer);
    timer = undefined;
    attempt = 0;
    outageMessage.hidden = true;
  }

  outageTryNow.addEventListener("click", tryAgain);
  // The browser says the network is back: no need to wait.
  addEventListener("online", () => {
    if (waiting.size > 0) tryAgain();
  });

  return {
    retryLater(task, error, retry) {
      if (!isOutage(error)) {
        settle(task);
        return false;
      }
      trying.delete(task);
      waiting.set(task, retry);
      outageMessage.hidden = false;
      timer ??= setTimeout(tryAgain, retryDelaySeconds(++attempt) * 1000);
      return true;
    },
    answered: settle,
    clear() {
      waiting.clear();
      trying.clear();
      settle("");
    },
  };
}
