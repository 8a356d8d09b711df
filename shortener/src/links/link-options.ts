import { parseRedirectStatus, type RedirectStatus } from "../http/redirect-status.ts";
import { InvalidRequest } from "@linkgeo/shared";
import { parseInstant } from "../http/instant.ts";

/** The statuses a redirect may answer with: the service default (REDIRECT_STATUS) or a link's own. */

/** What a rule may ask of a visitor's device: its OS (`ios`, `android`) or its kind. */
export const ruleDevices = ["ios", "android", "mobile", "tablet", "desktop"] as const;
export type RuleDevice = (typeof ruleDevices)[number];

/** One targeting rule: visitors matching every condition of `when` go to `url` instead. */
export interface LinkRule {
  when: { device?: RuleDevice; country?: string; language?: string };
  url: string;
}

/**
 * What an owner may say about a link besides its long URL (docs/api.md: "Link
 * options"). Every one is optional; a link without any behaves as links
 * always did. The password is kept only as its argon2id hash.
 */
export interface LinkOptions {
  expiresAt: Date | null;
  maxVisits: number | null;
  expiredUrl: string | null;
  redirectStatus: RedirectStatus | null;
  passwordHash: string | null;
  tags: string[];
  title: string | null;
  forwardQuery: boolean;
  rules: LinkRule[];
  /** Anyone may read the link's visits report, not only those who may read the link (docs/people.md: "Private by default"). */
  publicStats: boolean;
}

export const noOptions: LinkOptions = {
  expiresAt: null,
  maxVisits: null,
  expiredUrl: null,
  redirectStatus: null,
  passwordHash: null,
  tags: [],
  title: null,
  forwardQuery: false,
  rules: [],
  publicStats: false,
};

export const maxVisitsLimit = 2_147_483_647;
export const maxTags = 10;
export const maxRules = 20;
export const maxTitleLength = 200;
export const passwordLength = { min: 8, max: 128 } as const;

/** A tag as links hold them; an import makes other tools' tags into this shape (transfer/source-text.ts). */
export const tagPattern = /^[a-z0-9_-]{1,32}$/;
const countryPattern = /^[A-Z]{2}$/;
const languagePattern = /^[a-z]{2,3}$/;
// C0, DEL and C1: never in a title or a password (a NUL ends a Postgres text, an escape rewrites a terminal).
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/** The options as the API names them (snake case), each as a client sent it: nothing here is trusted yet. */
export interface OptionsInput {
  expires_at?: unknown;
  max_visits?: unknown;
  expired_url?: unknown;
  redirect_status?: unknown;
  password?: unknown;
  tags?: unknown;
  title?: unknown;
  forward_query?: unknown;
  rules?: unknown;
  public_stats?: unknown;
}

/** The options a request sets, as parseOptions checked them: the password still in clear (null: remove it). */
export type ParsedOptions = Partial<Omit<LinkOptions, "passwordHash">> & { password?: string | null };

/**
 * The options a request sets, checked: each field present in `input` is
 * parsed into its stored form (`null` clears it), each absent one is left
 * out. A bad value is a 400 naming its field. URLs (`expired_url`, each
 * rule's `url`) are checked by `checkUrl`, the long URL's own rule; the
 * password is returned in clear, for the caller to hash. `now` refuses an
 * expiry already past when `refusePastExpiry` (creating a link).
 */
export function parseOptions(input: OptionsInput, checkUrl: (raw: string, field: string) => string, now: Date, refusePastExpiry: boolean): ParsedOptions {
  const parsed: ParsedOptions = {};
  if (input.expires_at !== undefined) parsed.expiresAt = parseExpiry(input.expires_at, now, refusePastExpiry);
  if (input.max_visits !== undefined) parsed.maxVisits = parseMaxVisits(input.max_visits);
  if (input.expired_url !== undefined)
    parsed.expiredUrl = input.expired_url === null ? null : checkUrl(stringField(input.expired_url, "expired_url"), "expired_url");
  if (input.redirect_status !== undefined) parsed.redirectStatus = parseRedirectStatus(input.redirect_status);
  if (input.password !== undefined) parsed.password = input.password === null ? null : parsePassword(input.password);
  if (input.tags !== undefined) parsed.tags = parseTags(input.tags);
  if (input.title !== undefined) parsed.title = parseTitle(input.title);
  if (input.forward_query !== undefined) parsed.forwardQuery = booleanField(input.forward_query, "forward_query");
  if (input.public_stats !== undefined) parsed.publicStats = booleanField(input.public_stats, "public_stats");
  if (input.rules !== undefined) parsed.rules = parseRules(input.rules, checkUrl);
  return parsed;
}

function invalid(message: string): InvalidRequest {
  return InvalidRequest.because(message);
}

function booleanField(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalid(`${field} must be true or false`);
  return value;
}

function stringField(value: unknown, field: string): string {
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  return value;
}

function parseExpiry(value: unknown, now: Date, refusePast: boolean): Date | null {
  if (value === null) return null;
  const at = parseInstant(value, "expires_at");
  if (refusePast && at.getTime() <= now.getTime()) throw invalid("expires_at is already past");
  return at;
}

function parseMaxVisits(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > maxVisitsLimit) {
    throw invalid(`max_visits must be a whole number from 1 to ${maxVisitsLimit}`);
  }
  return value;
}

/** A password as a person types it: 8 to 128 characters, none of them a control character. */
export function parsePassword(value: unknown): string {
  const text = stringField(value, "password");
  const length = [...text].length;
  if (length < passwordLength.min || length > passwordLength.max) {
    throw invalid(`password must be ${passwordLength.min} to ${passwordLength.max} characters`);
  }
  if (controlCharacter.test(text)) throw invalid("password must not contain control characters");
  return text;
}

function parseTags(value: unknown): string[] {
  if (value === null) return [];
  if (!Array.isArray(value) || value.length > maxTags) throw invalid(`tags must be a list of at most ${maxTags} tags`);
  const tags = value.map((tag) => {
    const lower = typeof tag === "string" ? tag.toLowerCase() : undefined;
    if (lower === undefined || !tagPattern.test(lower)) throw invalid("tags: each tag must be 1 to 32 of a-z 0-9 _ -");
    return lower;
  });
  return [...new Set(tags)];
}

/** A tag as the listing filter takes it (`?tag=`): the same rule as the link's. */
export function parseTag(value: string): string {
  const lower = value.toLowerCase();
  if (!tagPattern.test(lower)) throw invalid("tag must be 1 to 32 of a-z 0-9 _ -");
  return lower;
}

function parseTitle(value: unknown): string | null {
  if (value === null) return null;
  const text = stringField(value, "title");
  if ([...text].length > maxTitleLength) throw invalid(`title must be at most ${maxTitleLength} characters`);
  if (controlCharacter.test(text)) throw invalid("title must not contain control characters");
  return text.trim() === "" ? null : text;
}

/**
 * A rule with its keys in one order: `when` (device, country, language),
 * then `url`. Postgres' jsonb keeps an object's keys sorted its own way (by
 * length), SQLite's JSON as a client wrote them: both stores read rules
 * through this, so an answer and an export are the same on either engine.
 */
export function ruleInFixedOrder(rule: LinkRule): LinkRule {
  const { device, country, language } = rule.when;
  return {
    when: { ...(device === undefined ? {} : { device }), ...(country === undefined ? {} : { country }), ...(language === undefined ? {} : { language }) },
    url: rule.url,
  };
}

function parseRules(value: unknown, checkUrl: (raw: string, field: string) => string): LinkRule[] {
  if (value === null) return [];
  if (!Array.isArray(value) || value.length > maxRules) throw invalid(`rules must be a list of at most ${maxRules} rules`);
  return value.map((raw, index) => {
    const field = `rules.${index}`;
    if (!isPlainObject(raw)) throw invalid(`${field} must be an object with when and url`);
    const unknownKey = Object.keys(raw).find((key) => key !== "when" && key !== "url");
    if (unknownKey !== undefined) throw invalid(`${field} has an unknown key (only when and url)`);
    return { when: parseWhen(raw.when, `${field}.when`), url: checkUrl(stringField(raw.url, `${field}.url`), `${field}.url`) };
  });
}

function parseWhen(value: unknown, field: string): LinkRule["when"] {
  if (!isPlainObject(value)) throw invalid(`${field} must be an object`);
  const when: LinkRule["when"] = {};
  for (const [key, condition] of Object.entries(value)) {
    if (key === "device") {
      if (!ruleDevices.includes(condition as RuleDevice)) throw invalid(`${field}.device must be one of ${ruleDevices.join(", ")}`);
      when.device = condition as RuleDevice;
    } else if (key === "country") {
      const country = typeof condition === "string" ? condition.toUpperCase() : "";
      if (!countryPattern.test(country)) throw invalid(`${field}.country must be an ISO 3166-1 alpha-2 code, as DE`);
      when.country = country;
    } else if (key === "language") {
      const language = typeof condition === "string" ? condition.toLowerCase() : "";
      if (!languagePattern.test(language)) throw invalid(`${field}.language must be a primary language tag, as de`);
      when.language = language;
    } else {
      throw invalid(`${field} has an unknown condition (only device, country, language)`);
    }
  }
  if (Object.keys(when).length === 0) throw invalid(`${field} must name at least one condition`);
  return when;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export { parseRedirectStatus, redirectStatuses, type RedirectStatus } from "../http/redirect-status.ts";
