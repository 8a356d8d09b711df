export const maxLongUrlLength = 2048;

export type LongUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Checks a long URL against the contract: absolute http(s), at most 2048
 * characters, a host, no credentials, and not this service itself (a link
 * to ourselves would redirect in a loop). Returns the normalised form, which
 * is what is stored and sent in `Location`.
 */
export function checkLongUrl(raw: string, ownHosts: ReadonlySet<string>): LongUrlCheck {
  if (raw.length > maxLongUrlLength) return { ok: false, reason: `long_url must be at most ${maxLongUrlLength} characters` };
  if (raw.trim() !== raw || /[\u0000-\u001f\u007f]/.test(raw)) {
    return { ok: false, reason: "long_url must not contain spaces at its ends or control characters" };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "long_url must be an absolute http or https URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "long_url must be an http or https URL" };
  if (!url.hostname) return { ok: false, reason: "long_url must have a host" };
  if (url.username || url.password) return { ok: false, reason: "long_url must not contain a user name or password" };
  if (ownHosts.has(url.host.toLowerCase())) return { ok: false, reason: "long_url must not point at this service" };
  if (url.href.length > maxLongUrlLength) return { ok: false, reason: `long_url must be at most ${maxLongUrlLength} characters` };
  return { ok: true, url: url.href };
}
