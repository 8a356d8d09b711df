/**
 * A link's options as the API shows and takes them (docs/api.md: "Link
 * options"; their types are the API's, from its record), and how a person
 * reads them.
 */
import type { RequestBody } from "./api-call.ts";
import type { LinkRecord, OptionName } from "./link-record.ts";

export type RedirectStatus = NonNullable<LinkRecord["redirect_status"]>;
export type LinkState = LinkRecord["state"];

/** `url` is null in a protected link's record for whoever neither manages it nor is an admin. */
export type LinkRule = LinkRecord["rules"][number];
export type RuleCondition = LinkRule["when"];
export type RuleDevice = NonNullable<RuleCondition["device"]>;

/** The options in a link's record. */
export type LinkOptions = Pick<LinkRecord, OptionName>;

/** The options a form holds, as a request sends them (each rule with its address); the password apart (it is write-only). */
export type OptionInputs = Omit<LinkOptions, "password_protected" | "state" | "rules"> & { rules: (Omit<LinkRule, "url"> & { url: string })[] };

/** The options of a new link, as its create sends them. */
export type NewLinkOptions = Omit<RequestBody<"POST /shorten/">, "long_url" | "short_url">;
/** A change of a link, as its PUT sends it. */
export type LinkChanges = RequestBody<"PUT /shorten/{short_url}">;

/** Each device a rule may name (a record of them all: one the API adds is a type error here until it has its words). */
export const deviceNames: Record<RuleDevice, string> = { ios: "iOS", android: "Android", mobile: "Mobile", tablet: "Tablet", desktop: "Desktop" };
export const ruleDevices = Object.keys(deviceNames) as RuleDevice[];

/** A state as its badge says it. */
export const stateNames: Record<LinkState, string> = {
  active: "Active",
  expired: "Expired",
  exhausted: "Used up",
  quarantined: "Quarantined",
  disabled: "Disabled",
};

/**
 * The body of a new link's options: only those that say something, so a
 * link made without touching "Customize" is a plain link.
 */
export function newLinkOptions(options: OptionInputs, password: string | null | undefined): NewLinkOptions {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === null || value === false || (Array.isArray(value) && value.length === 0)) continue;
    body[key] = value;
  }
  if (typeof password === "string") body.password = password;
  return body as NewLinkOptions;
}

/**
 * The body of a change: each option whose value differs from the record's
 * (an empty field clears its option: null, or [] for lists), and the
 * password when one was typed (set) or its removal asked (null).
 */
export function changedOptions(record: LinkOptions, options: OptionInputs, password: string | null | undefined): LinkChanges {
  const body: Record<string, unknown> = {};
  const before: Record<string, unknown> = { ...record, expires_at: instant(record.expires_at) };
  const after: Record<string, unknown> = { ...options, expires_at: instant(options.expires_at) };
  for (const key of Object.keys(options) as (keyof OptionInputs)[]) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) body[key] = options[key];
  }
  if (password !== undefined) body.password = password;
  return body as LinkChanges;
}

const instant = (iso: string | null) => (iso === null ? null : new Date(iso).getTime());

/** A datetime-local value (the reader's own zone) as ISO 8601 with that zone's offset, as the API takes it; null if it is no time. */
export function isoOfLocal(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  // A date-time without an offset is read in the local zone.
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  const offset = -at.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${value.length === 16 ? `${value}:00` : value}${sign}${hours}:${minutes}`;
}

/** An instant as a datetime-local value in the reader's own zone, to the minute. */
export function localOfIso(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The reader's time zone, as the hint under the expiry names it. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "your own";
}

/** Tags as typed, comma separated: trimmed, lower-cased, empty ones dropped. */
export function tagsOf(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag !== "");
}

/** Which control an API error is about: an option, or one rule's condition or address. */
export type OptionField =
  | { kind: "option"; name: Exclude<keyof OptionInputs, "rules"> | "password" }
  | { kind: "rules" }
  | { kind: "rule"; index: number; part: "device" | "country" | "language" | "url" | null };

const optionNames = ["expires_at", "max_visits", "expired_url", "redirect_status", "password", "tags", "title", "forward_query", "public_stats"] as const;

const fieldLabels: Record<string, string> = {
  expires_at: "the expiry",
  max_visits: "the maximum of visits",
  expired_url: "the address once expired or used up",
  redirect_status: "the redirect status",
  password: "the password",
  tags: "tags",
  title: "the title",
  forward_query: "forward the query string",
  public_stats: "anyone may see the visits",
  rules: "rules",
};
const partLabels: Record<string, string> = { device: "the device", country: "the country", language: "the language", url: "the address" };

/**
 * The field an API error names (its message starts with it: `max_visits
 * must be …`, `rules.0.when.device must be …`), and the message with the
 * field said in words ("The maximum of visits must be …"); null for an
 * error about no option.
 */
export function optionErrorOf(message: string): { field: OptionField; message: string } | null {
  const match = /^(rules)\.(\d+)(?:\.when\.(device|country|language)|\.(url)|\.when)?\b|^([a-z_]+)\b/.exec(message);
  if (!match) return null;
  const rest = message.slice(match[0].length).replace(/^:/, "");
  if (match[1] === "rules") {
    const part = (match[3] ?? match[4] ?? null) as "device" | "country" | "language" | "url" | null;
    return { field: { kind: "rule", index: Number(match[2]), part }, message: sentence(`${part ? partLabels[part] : "this rule"}${rest}`) };
  }
  const name = match[5]!;
  if (name === "rules") return { field: { kind: "rules" }, message: sentence(`${fieldLabels.rules}${rest}`) };
  if (!(optionNames as readonly string[]).includes(name)) return null;
  return { field: { kind: "option", name: name as (typeof optionNames)[number] }, message: sentence(`${fieldLabels[name]}${rest}`) };
}

function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
