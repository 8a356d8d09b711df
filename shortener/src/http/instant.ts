import { InvalidRequest } from "@linkgeo/shared";

// ISO 8601 as JSON writes it: a date and a time with an offset (or Z). A bare date or a local time would depend on the server's zone.
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The instants every engine stores and reads back alike, the one window for
 * every date we take (a link's or a key's `expires_at`, a visits range, each
 * date of an import): from the Unix epoch, before which no link was made nor
 * visited, to the end of the year 9998. Postgres reads no year 0, no year
 * before it and no five-digit year (JavaScript writes 10000 as "+010000"),
 * where SQLite would keep them; and a visits range's last bucket ends a step
 * after its `to`.
 */
export const firstInstant = new Date("1970-01-01T00:00:00.000Z");
export const lastInstant = new Date("9998-12-31T23:59:59.999Z");
const instantYears = `from ${firstInstant.getUTCFullYear()} to ${lastInstant.getUTCFullYear()}`;

/** Whether `at` is a real instant (not an Invalid Date) within [firstInstant, lastInstant]. */
export function isStorableInstant(at: Date): boolean {
  const time = at.getTime();
  return time >= firstInstant.getTime() && time <= lastInstant.getTime();
}

/** `at` when it is within [firstInstant, lastInstant]; otherwise a 400 naming `field`. */
export function storableInstant(at: Date, field: string): Date {
  if (!isStorableInstant(at)) throw InvalidRequest.because(instantOutOfRange(field));
  return at;
}

/** What is wrong with an instant of `field` outside the window: "created_at must be from 1970 to 9998". */
export function instantOutOfRange(field: string): string {
  return `${field} must be ${instantYears}`;
}

/**
 * An instant a client names in a body (a link's or a key's `expires_at`):
 * ISO 8601 with a zone, on a day that exists, within [firstInstant,
 * lastInstant]; otherwise a 400 naming `field`.
 */
export function parseInstant(value: unknown, field: string): Date {
  const text = typeof value === "string" ? value : "";
  const at = isoInstant.test(text) ? new Date(text) : new Date(Number.NaN);
  // Date rolls 2026-02-30 over to March; a date that does not exist is refused instead.
  if (Number.isNaN(at.getTime()) || !isCalendarDate(text)) {
    throw InvalidRequest.because(`${field} must be an ISO 8601 date and time with a zone, as 2026-12-31T23:59:59Z`);
  }
  return storableInstant(at, field);
}

/** Whether the day written at the start of `text` is a real one. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const written = new Date(Date.UTC(2000, month - 1, day));
  written.setUTCFullYear(year);
  return written.getUTCFullYear() === year && written.getUTCMonth() === month - 1 && written.getUTCDate() === day;
}
