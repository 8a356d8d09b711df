/**
 * What a short code looks like, wherever it is checked: 3 to 32 of A-Z, a-z,
 * 0-9, _ and - (a generated code is 7 of them; an alias or an imported code
 * any of them). The shortener refuses an alias of another shape and answers
 * any other segment 404 without a lookup; the gateway (a password try's
 * budget, a batched redirect, a link's page) and the web app (an alias
 * typed, a saved link) read codes by the same rule. Pure: the browser bundle
 * imports it as it is.
 */
export const shortCodeCharacters = "[A-Za-z0-9_-]{3,32}";

export const shortCodeShape = new RegExp(`^${shortCodeCharacters}$`);

/**
 * The code a path segment names as the shortener will read it (its router
 * decodes `%41bc` to `Abc`, so the gateway must too, or an escaped spelling
 * would dodge the link's budget). Undefined for anything that cannot be a
 * code: the shortener answers that 404 without a lookup, so it stays API
 * traffic and gets no bucket of its own.
 */
export function shortCodeIn(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return shortCodeShape.test(decoded) ? decoded : undefined;
}
