import { printableLabel } from "./printable-label.ts";

/** The referrer of a visit that came with no Referer (typed, bookmarked, from an app, or a policy of `no-referrer`). */
export const directReferrer = "direct";
/** The referrer of a visit whose Referer is not an absolute http(s) URL (`android-app://…`, garbage). */
export const unknownReferrer = "unknown";

// The host comes first in a URL, so the start of a long Referer is enough;
// reading no more bounds what a hostile header costs.
const maxReadLength = 4096;
// The longest name DNS allows.
const maxHostLength = 253;

/**
 * The host a visit was referred from: lower case, punycode for an
 * international name (`xn--bcher-kva.example`), no port, credentials or
 * trailing dot, `[…]` around an IPv6 address. A site named `direct` or
 * `unknown` (single-label names no public site has) is `unknown`, so that
 * these two stay unambiguous.
 */
export function referrerHost(referer: string | null): string {
  const text = referer?.trim();
  if (!text) return directReferrer;
  const url = URL.parse(text.slice(0, maxReadLength));
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return unknownReferrer;
  const host = url.hostname.replace(/\.+$/, "");
  if (host === directReferrer || host === unknownReferrer) return unknownReferrer;
  return printableLabel(host, maxHostLength) ?? unknownReferrer;
}
