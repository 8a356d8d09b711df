import { isReserved, shortCodeShape } from "@linkgeo/shared";
import { customAlphabet } from "nanoid";

/**
 * What a generated code is made of: [A-Za-z0-9] without the characters
 * people take for one another when they read a code off a poster or type
 * it from a screenshot (0 and O; 1, l and I).
 */
export const unmistakableCharacters = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
export const generatedCodeLength = 7;

/** 7 of the 57 unmistakable characters: 57^7 ≈ 1.95e12 codes. */
export const generateCode: () => string = customAlphabet(unmistakableCharacters, generatedCodeLength);

// The reserved words live with the code's shape in the wire kit: the web app checks an alias typed against the same list.
export { isReserved, reservedWords } from "@linkgeo/shared";

/** Why `alias` cannot be a custom alias, or null when it can. */
export function aliasProblem(alias: string): string | null {
  if (!shortCodeShape.test(alias)) return "short_url must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -";
  if (isReserved(alias)) return `short_url "${alias}" is a reserved word`;
  return null;
}

/** Whether a path segment could name a link at all; anything else is a 404 without a lookup. */
export function couldBeCode(segment: string): boolean {
  return shortCodeShape.test(segment);
}
