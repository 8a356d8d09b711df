import { isReserved, shortCodeShape } from "@linkgeo/shared/wire";

/** Bounds of an alias, as the API takes it (shortCodeShape). */
const shortest = 3;
const longest = 32;

/**
 * What is wrong with an alias typed, in words that say what to change
 * rather than repeat the field's hint, or null when the API would take its
 * shape and it is no reserved word (whether a link has it is the API's to
 * say). `whileTyping`: an alias still too short is no problem yet, as more
 * may be on its way. Pure, for the alias field's script and the unit tests.
 */
export function aliasProblem(alias: string, { whileTyping = false } = {}): string | null {
  const characters = [...alias];
  if (/\s/u.test(alias)) return "An alias cannot have spaces.";
  const odd = characters.find((character) => !/^[A-Za-z0-9_-]$/.test(character));
  if (odd !== undefined) return `An alias cannot have “${odd}”.`;
  if (characters.length > longest) return `Too long: an alias has at most ${longest} characters.`;
  if (characters.length < shortest) return whileTyping ? null : `Too short: an alias has at least ${shortest} characters.`;
  if (isReserved(alias)) return `“${alias}” is a reserved word: the service uses it for its own pages. Choose another alias.`;
  // Whatever the checks above let through and the API would still refuse.
  return shortCodeShape.test(alias) ? null : "An alias is letters, digits, _ or -.";
}
