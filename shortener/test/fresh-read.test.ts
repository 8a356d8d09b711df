import { describe, expect, test } from "bun:test";
import { asksForFresh } from "../src/http/fresh-read.ts";

describe("asksForFresh", () => {
  test("Cache-Control or Pragma naming no-cache asks for the primary's answer; anything else does not", () => {
    const asks = (headers: Record<string, string>) => asksForFresh(new Headers(headers));
    expect([asks({ "cache-control": "no-cache" }), asks({ "cache-control": "max-age=0, No-Cache" }), asks({ pragma: "no-cache" })]).toEqual([true, true, true]);
    expect([asks({}), asks({ "cache-control": "max-age=0" }), asks({ "cache-control": "no-cache-please" }), asks({ "cache-control": "no-store" })]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  test("hostile values: long runs of commas and spaces, control-free junk, repeats joined by the Headers class: read, never thrown on", () => {
    const asks = (value: string) => asksForFresh(new Headers({ "cache-control": value }));
    expect(asks(`${",".repeat(16_000)}${" ".repeat(16_000)}no-cach`)).toBe(false);
    expect(asks(`${" ,".repeat(8_000)}no-cache`)).toBe(true);
    expect(asks("\u00a0no-cache")).toBe(false);
    const repeated = new Headers();
    repeated.append("cache-control", "max-age=0");
    repeated.append("cache-control", "no-cache");
    expect(asksForFresh(repeated)).toBe(true);
  });
});
