import { shortCodeShape } from "@linkgeo/shared";
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

/**
 * Paths the gateway and the services route themselves, so no alias may take
 * them. Compared without regard to case.
 */
export const reservedWords: ReadonlySet<string> = new Set([
  "shorten",
  "docs",
  "health",
  "ready",
  "metrics",
  "admin",
  "geocoders",
  "reverse-geocode",
  "static",
  "api",
  // The gateway serves the web app under /app/.
  "app",
  // The gateway's redirect batches arrive under /internal/ (never proxied from outside).
  "internal",
  "favicon.ico",
  "robots.txt",
]);

export function isReserved(code: string): boolean {
  return reservedWords.has(code.toLowerCase());
}

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
