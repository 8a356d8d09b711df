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
});
