/**
 * What a person typed as the URL to shorten, as the API takes it: an http or
 * https URL. Typed without a scheme (`example.com/page`, as Dub, Kutt and
 * Bitly accept it) it becomes https, provided its host has a dot, so a stray
 * word is not taken for a host; `addedScheme` says so, for the page to tell.
 * Null when it is no web address. The service checks the rest (where it may
 * point).
 */
export function webAddressOf(typed: string): { url: string; addedScheme: boolean } | null {
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(typed) && !/^[^/:]+:\d+(\/|$)/.test(typed);
  const url = parsed(hasScheme ? typed : `https://${typed}`);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return null;
  if (!hasScheme && !url.hostname.includes(".") && !url.hostname.startsWith("[")) return null;
  return { url: hasScheme ? typed : url.href, addedScheme: !hasScheme };
}

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * A typed address as a form sends it: with `https://` added when it was
 * typed without a scheme (`example.com/sorry`), else exactly as typed, for
 * the API to judge and name its error (an `ftp:` address, a stray word).
 */
export function addressToSend(typed: string): string {
  return webAddressOf(typed)?.url ?? typed;
}
