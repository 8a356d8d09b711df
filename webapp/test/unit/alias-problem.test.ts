import { describe, expect, test } from "bun:test";
import { reservedWords } from "@linkgeo/shared/wire";
import { aliasProblem } from "../../src/components/alias-field/alias-problem.ts";

describe("what is wrong with an alias typed", () => {
  test("nothing, for one the API takes", () => {
    for (const alias of ["abc", "spring-sale_2", "A".repeat(32)]) expect(aliasProblem(alias)).toBeNull();
  });

  test("says what to change, not the rule again", () => {
    expect(aliasProblem("no spaces please")).toBe("An alias cannot have spaces.");
    expect(aliasProblem("café")).toBe("An alias cannot have “é”.");
    expect(aliasProblem("a/b")).toBe("An alias cannot have “/”.");
    expect(aliasProblem("ab")).toBe("Too short: an alias has at least 3 characters.");
    expect(aliasProblem("x".repeat(33))).toBe("Too long: an alias has at most 32 characters.");
  });

  test("an alias still too short is no problem while it is typed", () => {
    expect(aliasProblem("ab", { whileTyping: true })).toBeNull();
    expect(aliasProblem("a b", { whileTyping: true })).toBe("An alias cannot have spaces.");
  });

  test("every reserved word of the shortener, in any case, is said to be one", () => {
    for (const word of reservedWords) {
      const alias = word.toUpperCase();
      // Some reserved words have a dot, which no alias may have anyway.
      if (!/^[A-Za-z0-9_-]+$/.test(word)) continue;
      expect(aliasProblem(alias)).toBe(`“${alias}” is a reserved word: the service uses it for its own pages. Choose another alias.`);
    }
    expect(aliasProblem("admin-page")).toBeNull();
  });
});
