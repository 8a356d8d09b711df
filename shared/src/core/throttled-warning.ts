import type { LogFields, Logger } from "./logger.ts";

/**
 * A warning for a dependency that keeps failing (Redis down): the first one
 * is logged at once, then at most one every `everyMs`, so an outage under
 * load does not flood the log.
 */
export function throttledWarning(log: Logger, message: string, options: { everyMs?: number; now?: () => number } = {}) {
  const everyMs = options.everyMs ?? 10_000;
  const now = options.now ?? Date.now;
  let last = Number.NEGATIVE_INFINITY;
  return (fields: LogFields) => {
    const at = now();
    if (at - last < everyMs) return;
    last = at;
    log.warn(message, fields);
  };
}
