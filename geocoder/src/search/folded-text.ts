/**
 * A name or a query as the forward search compares them: diacritics folded
 * (`Zürich` = `Zurich`, `Kōtō` = `Koto`), letters without a decomposition
 * spelled as people type them without the key (`ß` = `ss`, `ø` = `o`), lower
 * case, every run of punctuation and spaces one space. Scripts other than
 * Latin keep their letters (lower-cased, their marks folded).
 */
export function foldedText(text: string): string {
  // Plain ASCII (most names) has nothing to decompose or spell out: the same answer for a third of the work, which
  // counts at start, when LOCAL folds every place's name.
  return asciiOnly.test(text) ? foldedAscii(text) : foldedUnicode(text);
}

const asciiOnly = /^[\x00-\x7f]*$/;

function foldedAscii(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The whole rule, for any text (exported for the test that holds the ASCII shortcut to it). */
export function foldedUnicode(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđłþı]/g, (letter) => spelledOut[letter]!)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const spelledOut: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th", ı: "i" };
