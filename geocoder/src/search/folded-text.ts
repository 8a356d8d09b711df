/**
 * A name or a query as the forward search compares them: diacritics folded
 * (`Zürich` = `Zurich`, `Kōtō` = `Koto`), letters without a decomposition
 * spelled as people type them without the key (`ß` = `ss`, `ø` = `o`), lower
 * case, every run of punctuation and spaces one space. Scripts other than
 * Latin keep their letters (lower-cased, their marks folded).
 */
export function foldedText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđłþı]/g, (letter) => spelledOut[letter]!)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const spelledOut: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th", ı: "i" };
