import { h } from "./dom.ts";
import { readableUrl } from "./readable-url.ts";

/** A destination as the admin table shows it: where it goes first, then what on that host. */
export interface ReadableDestination {
  /** "http://" when the link leaves HTTPS (worth seeing); "" for https. */
  scheme: string;
  /** The host (and a port other than the scheme's), as the browser's URL parser writes it: a look-alike host stays in punycode. */
  host: string;
  /** Path, query and fragment, escapes of ordinary characters decoded; "" for the bare host. */
  rest: string;
  /** The URL to link to, or null when it is no http(s) URL (then `rest` holds it all, as text). */
  href: string | null;
}

/**
 * Splits a destination for reading: `https://docs.example.com/guide/start?x=1`
 * becomes `docs.example.com` and `/guide/start?x=1`, so a long address shows
 * its host in full instead of being cut after its first characters. Only
 * ever used as text and as an http(s) link.
 */
export function readableDestination(longUrl: string): ReadableDestination {
  let url: URL;
  try {
    url = new URL(longUrl);
  } catch {
    return { scheme: "", host: "", rest: longUrl, href: null };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { scheme: "", host: "", rest: longUrl, href: null };
  const rest = readableUrl(url.pathname + url.search + url.hash);
  return { scheme: url.protocol === "http:" ? "http://" : "", host: url.host, rest: rest === "/" ? "" : rest, href: url.href };
}

/** Host first, in full, then the rest on up to two lines; the whole address in the link's title and target. */
export function destinationLink(longUrl: string): HTMLElement {
  const { scheme, host, rest, href } = readableDestination(longUrl);
  const parts = [h("span", { class: "destination-host" }, scheme, host), rest && h("span", { class: "destination-rest" }, rest)];
  if (!href) return h("span", { class: "destination-link", title: longUrl }, parts);
  return h("a", { class: "destination-link", href, title: longUrl, rel: "noopener noreferrer nofollow" }, parts);
}
