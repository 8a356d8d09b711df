import { InvalidRequest } from "@linkgeo/shared";
import { couldBeCode } from "./short-code.ts";

/** How many links one daily-visits request may name (a page of the admin listing at most). */
export const maxCodesPerRequest = 100;
export const defaultDays = 14;
export const maxDays = 90;

/**
 * `?codes=a,b,c`: 1 to 100 short URLs, each shaped like one (3–32 of
 * A-Z a-z 0-9 _ -), repeats counted once; 400 otherwise. A code with no
 * link is fine: it has no visits.
 */
export function parseCodeList(raw: string): string[] {
  const codes = raw.split(",");
  if (codes.length > maxCodesPerRequest) throw InvalidRequest.because(`codes may name at most ${maxCodesPerRequest} short URLs`);
  if (!codes.every(couldBeCode)) throw InvalidRequest.because("codes must be a comma-separated list of short URLs (3 to 32 of A-Z, a-z, 0-9, _ and -)");
  return [...new Set(codes)];
}

/** `?days=`: a whole number from 1 to 90, 14 when absent; 400 otherwise. */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return defaultDays;
  const days = /^\d{1,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 1 && days <= maxDays)) throw InvalidRequest.because(`days must be a whole number from 1 to ${maxDays}`);
  return days;
}
