export const maxLongUrlLength = 2048;

export type LongUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Checks the shape of a long URL against the API's rule: absolute http(s), at
 * most 2048 characters, a host, no credentials. Returns it parsed; its
 * `href`, the normalised form, is what is stored and sent in `Location`.
 * Which hosts it may name is LinkTargets' rule.
 */
export function checkLongUrl(raw: string, field = "long_url"): LongUrlCheck {
  if (raw.length > maxLongUrlLength) return { ok: false, reason: `${field} must be at most ${maxLongUrlLength} characters` };
  if (raw.trim() !== raw || /[\u0000-\u001f\u007f]/.test(raw)) {
    return { ok: false, reason: `${field} must not contain spaces at its ends or control characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `${field} must be an absolute http or https URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `${field} must be an http or https URL` };
  if (!url.hostname) return { ok: false, reason: `${field} must have a host` };
  if (url.username || url.password) return { ok: false, reason: `${field} must not contain a user name or password` };
  if (url.href.length > maxLongUrlLength) return { ok: false, reason: `${field} must be at most ${maxLongUrlLength} characters` };
  return { ok: true, url };
}
