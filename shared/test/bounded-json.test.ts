import { describe, expect, test } from "bun:test";
import { nestedJson } from "@linkgeo/testing";
import { jsonShapeOf, JsonTooDeep, maxJsonDepth, parseJson } from "../src/index.ts";

describe("JSON from outside, behind the nesting bound", () => {
  test(`parses ${maxJsonDepth} levels of arrays and objects, and refuses one more before JSON.parse builds anything`, () => {
    expect(parseJson(nestedJson(maxJsonDepth))).toEqual(JSON.parse(nestedJson(maxJsonDepth)));
    expect(() => parseJson(nestedJson(maxJsonDepth + 1))).toThrow(new JsonTooDeep());
    expect(() => parseJson(nestedJson(100_000))).toThrow(`nests deeper than ${maxJsonDepth} levels of arrays and objects`);
    expect(() => parseJson(`[${"[".repeat(maxJsonDepth)}`)).toThrow(JsonTooDeep);
  });

  test("a refusal is a SyntaxError, as JSON.parse's own are, so a caller's catch of bad JSON holds", () => {
    expect(new JsonTooDeep()).toBeInstanceOf(SyntaxError);
    expect(() => parseJson("{")).toThrow(SyntaxError);
  });

  test("counts only brackets outside strings, whatever the strings escape", () => {
    const brackets = "[".repeat(maxJsonDepth + 10);
    for (const text of [
      JSON.stringify({ a: brackets }),
      JSON.stringify({ a: `\\${brackets}`, b: `"${brackets}`, c: "\\" }),
      JSON.stringify([`\\\\"`, brackets, "{{{"]),
    ]) {
      expect(jsonShapeOf(text)).toEqual({ tooDeep: false, objects: text.startsWith("{") ? 1 : 0 });
      expect(parseJson(text)).toEqual(JSON.parse(text));
    }
    // A string whose last character is an escaped backslash closes at the quote after it: what follows is counted.
    expect(jsonShapeOf(`{"a":"\\\\",${"[".repeat(maxJsonDepth)}`).tooDeep).toBe(true);
    // An unclosed string hides the rest: JSON.parse refuses the text afterwards.
    expect(jsonShapeOf(`"${"[".repeat(maxJsonDepth + 1)}`).tooDeep).toBe(false);
  });

  test("counts the objects a text opens, strings aside", () => {
    expect(jsonShapeOf('{"points":[{"a":1},{"b":"{"},{}],"c":{}}').objects).toBe(5);
    expect(jsonShapeOf("[1, 2, 3]").objects).toBe(0);
  });
});
