import { webAddressOf } from "../../client/lib/web-address.ts";

/**
 * Campaign tags (UTM) on a web address, as analytics tools read them:
 * utm_source, utm_medium and utm_campaign, and utm_term and utm_content when
 * given. Pure: the builder's script and the unit tests use it alike.
 */
export const utmTags = ["source", "medium", "campaign", "term", "content"] as const;
export type UtmTag = (typeof utmTags)[number];
export type UtmValues = Record<UtmTag, string>;

/** The tags every tagged link carries; the others are optional. */
export const requiredUtmTags: readonly UtmTag[] = ["source", "medium", "campaign"];

const parameterOf = (tag: UtmTag) => `utm_${tag}`;

/** A query's pieces (`a=1`, `b`) and the name each one has, decoded as a server would. */
function queryPieces(search: string): { piece: string; name: string }[] {
  return search
    .replace(/^\?/, "")
    .split("&")
    .filter((piece) => piece !== "")
    .map((piece) => {
      const raw = piece.split("=", 1)[0]!.replaceAll("+", " ");
      let name: string;
      try {
        name = decodeURIComponent(raw);
      } catch {
        name = raw;
      }
      return { piece, name };
    });
}

const isUtm = (name: string) => utmTags.some((tag) => name === parameterOf(tag));

/** The tags `typed` has (an empty string for each it lacks), or undefined when it is no web address. */
export function utmValuesOf(typed: string): UtmValues | undefined {
  const address = webAddressOf(typed.trim());
  if (!address) return undefined;
  const parameters = new URL(address.url).searchParams;
  return Object.fromEntries(utmTags.map((tag) => [tag, parameters.get(parameterOf(tag)) ?? ""])) as UtmValues;
}

/**
 * `typed` with exactly these tags: its own utm_ parameters taken out, the
 * rest of its query kept byte for byte, then each tag that says something
 * added in the usual order (percent-encoded, a space as %20), before any
 * #fragment. An address typed without its scheme is given back without it,
 * so the page still says it adds https:// when it shortens. Undefined when
 * `typed` is no web address.
 */
export function withUtmValues(typed: string, values: UtmValues): string | undefined {
  const address = webAddressOf(typed.trim());
  if (!address) return undefined;
  const url = new URL(address.url);
  const kept = queryPieces(url.search)
    .filter(({ name }) => !isUtm(name))
    .map(({ piece }) => piece);
  const added = utmTags.filter((tag) => values[tag].trim() !== "").map((tag) => `${parameterOf(tag)}=${encodeURIComponent(values[tag].trim())}`);
  url.search = [...kept, ...added].join("&");
  return address.addedScheme ? url.href.replace(/^https:\/\//, "") : url.href;
}
