import { InvalidRequest } from "@linkgeo/shared";

// ISO 8601 as JSON writes it: a date and a time with an offset (or Z). A bare date or a local time would depend on the server's zone.
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An instant a client names in a body (a link's or a key's `expires_at`):
 * ISO 8601 with a zone, on a day that exists, from 1970 to 9998 (what
 * every engine stores, as the visit ranges); otherwise a 400 naming `field`.
 */
export function parseInstant(value: unknown, field: string): Date {
  const text = typeof value === "string" ? value : "";
  const at = isoInstant.test(text) ? new Date(text) : new Date(Number.NaN);
  // Date rolls 2026-02-30 over to March; a date that does not exist is refused instead.
  if (Number.isNaN(at.getTime()) || !isCalendarDate(text)) {
    throw InvalidRequest.because(`${field} must be an ISO 8601 date and time with a zone, as 2026-12-31T23:59:59Z`);
  }
  if (at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9998) throw InvalidRequest.because(`${field} must be from 1970 to 9998`);
  return at;
}

/** Whether the day written at the start of `text` is a real one. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const written = new Date(Date.UTC(2000, month - 1, day));
  written.setUTCFullYear(year);
  return written.getUTCFullYear() === year && written.getUTCMonth() === month - 1 && written.getUTCDate() === day;
}
