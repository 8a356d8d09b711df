/**
 * A URL as a person reads it: percent-escapes of ordinary characters decoded
 * (`/café`, not `/caf%C3%A9`), the way a browser's address bar shows it.
 * Reserved characters stay escaped (decodeURI keeps `%2F`, `%3F`, `%23`), and
 * a URL that would decode to control or bidirectional formatting characters,
 * which could disguise where it goes, is shown as it is. The result is only
 * ever used as text.
 */
export function readableUrl(url: string): string {
  try {
    const decoded = decodeURI(url);
    return /[\p{Cc}\p{Cf}]/u.test(decoded) ? url : decoded;
  } catch {
    return url;
  }
}
