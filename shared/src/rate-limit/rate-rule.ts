import type { RateRule } from "./token-bucket.ts";

/**
 * A rate limit as a variable states it (RATE_LIMIT_*, every service):
 * `<requests>/<period>` with an optional burst, `20/min`, `2/s`,
 * `600/hour,burst=50`; `off` means no limit (undefined). The bucket holds
 * `burst` (default: requests) and refills at requests per period.
 */
export function parseRateRule(raw: string): RateRule | undefined {
  if (raw.toLowerCase() === "off") return undefined;
  const match = /^(\d+)\s*\/\s*(s|sec|second|m|min|minute|h|hour)(?:\s*,\s*burst\s*=\s*(\d+))?$/i.exec(raw);
  if (!match) throw new Error('must be like "20/min", "2/s" or "600/hour,burst=50", or "off"');
  const requests = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  const seconds = unit.startsWith("s") ? 1 : unit.startsWith("m") ? 60 : 3600;
  const capacity = match[3] === undefined ? requests : Number(match[3]);
  if (requests < 1 || capacity < 1) throw new Error("needs at least 1 request and a burst of at least 1");
  return { capacity, perSecond: requests / seconds };
}
