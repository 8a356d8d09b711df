const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const whole = new Intl.NumberFormat();

/** "23 Nov 2026, 21:40" in the reader's own language and time zone; "never" for null. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "unknown" : dateTime.format(date);
}

export function formatCount(n: number): string {
  return whole.format(n);
}

/** "1 visit", "2 visits". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

const regionNames = new Intl.DisplayNames(undefined, { type: "region" });

/** A country's name in the reader's language, from its ISO 3166-1 alpha-2 code; the code itself when the browser knows none. */
export function regionName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}
