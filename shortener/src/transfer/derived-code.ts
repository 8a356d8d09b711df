import { generatedCodeLength, isReserved } from "../links/short-code.ts";
import type { ImportedLink } from "../links/link.ts";

/** How many codes a row without one may try: a derived code taken by another link (another long URL) is derived again. */
export const derivedCodeAttempts = 5;

/**
 * What makes a row without a code the same row on another run: its long
 * URL (normalised), title, creation date (as the file has it: none is none,
 * not the import's time) and tags.
 */
export function contentKey(link: Pick<ImportedLink, "longUrl" | "title" | "tags">, createdAt: Date | undefined): string {
  return [link.longUrl, link.title ?? "", createdAt?.toISOString() ?? "", (link.tags ?? []).join(" ")].join("\n");
}

/**
 * The code of a row without one, derived from its content key: shaped as a
 * generated code (7 of [A-Za-z0-9]), the same on every run, so a second run
 * finds the code taken by the link the first one made instead of making a
 * second. `attempt` gives the next candidate; a reserved word is never one.
 * Derived from all of [A-Za-z0-9], look-alikes included, unlike a generated
 * code: a file imported before generated codes left them out must derive the
 * same codes on a later run.
 */
/** The characters of a derived code: changing them would make a second run of an old file import its rows again. */
const derivedCodeCharacters = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function derivedCode(key: string, attempt: number): string {
  for (let salt = attempt; ; salt += derivedCodeAttempts) {
    const digest = new Bun.CryptoHasher("sha256").update(`${salt}\n${key}`).digest();
    let code = "";
    // 256 is not a multiple of 62: the first letters are a little likelier, which costs nothing here.
    for (let i = 0; i < generatedCodeLength; i++) code += derivedCodeCharacters[digest[i]! % derivedCodeCharacters.length];
    if (!isReserved(code)) return code;
  }
}
