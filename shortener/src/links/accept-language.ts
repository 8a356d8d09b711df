/** Language ranges read from one Accept-Language header, at most: a longer list says nothing more. */
const maxRanges = 32;

/**
 * The primary subtag (`de` of `de-CH`) of the language a visitor prefers
 * most, by its quality (ties: the first listed), or undefined when the
 * header names none (absent, `*`, or nothing parseable). A rule's language
 * matches this one language, not any the visitor would accept: someone who
 * prefers English but accepts German is sent the English page.
 */
export function preferredLanguage(header: string | null): string | undefined {
  if (!header) return undefined;
  let best: { language: string; quality: number } | undefined;
  for (const range of header.split(",", maxRanges)) {
    const [tag = "", ...parameters] = range.split(";");
    const language = /^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*$/.exec(tag)?.[1]?.toLowerCase();
    if (language === undefined) continue;
    const quality = qualityOf(parameters);
    if (quality > 0 && (best === undefined || quality > best.quality)) best = { language, quality };
  }
  return best?.language;
}

/** The `q` of a range's parameters (RFC 9110: 0 to 1, three decimals); 1 when absent, 0 when malformed. */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const match = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(parameter);
    if (match) return Number(match[1]);
    if (/^\s*q\s*=/i.test(parameter)) return 0;
  }
  return 1;
}
