/**
 * The deepest nesting of arrays and objects that JSON from outside may have:
 * a request body, an import row, a job's file, a provider's answer. Our own
 * deepest shape is a bulk item's rule (`{"items":[{"rules":[{"when":{…}}]}]}`,
 * 5 levels). Validating a deep value, and describing why it fails, costs time
 * that grows faster than its size (a 60 KB title nested 10,000 levels held a
 * replica's event loop for seconds, and 20,000 levels ran out of stack), so
 * the bound is checked before JSON.parse builds the value and any schema sees it.
 */
export const maxJsonDepth = 32;

/** JSON text nested deeper than `maxJsonDepth`. A SyntaxError, as JSON.parse's own refusals are. */
export class JsonTooDeep extends SyntaxError {
  constructor() {
    super(`nests deeper than ${maxJsonDepth} levels of arrays and objects`);
    this.name = "JsonTooDeep";
  }
}

/** What a JSON text holds, counted before JSON.parse builds it. */
export interface JsonShape {
  /** It nests deeper than `maxJsonDepth` (the count stopped there). */
  tooDeep: boolean;
  /** The objects it opens, up to where the count stopped. */
  objects: number;
}

/**
 * One pass over a JSON text, strings skipped whole: how deep it nests and how
 * many objects it opens. Linear in the text (about a nanosecond a character,
 * less than JSON.parse itself), and it stops at the first level too deep.
 * Malformed text has a shape too; JSON.parse refuses it afterwards.
 */
export function jsonShapeOf(text: string): JsonShape {
  let depth = 0;
  let objects = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      i = closingQuoteAfter(text, i);
      if (i === -1) break;
    } else if (code === 0x7b || code === 0x5b) {
      if (code === 0x7b) objects++;
      if (++depth > maxJsonDepth) return { tooDeep: true, objects };
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return { tooDeep: false, objects };
}

/**
 * JSON.parse behind the nesting bound: how JSON from outside is parsed.
 * Throws JsonTooDeep, or JSON.parse's own SyntaxError.
 */
export function parseJson(text: string): unknown {
  if (jsonShapeOf(text).tooDeep) throw new JsonTooDeep();
  return JSON.parse(text);
}

/** The index of the quote that closes the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuoteAfter(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}
