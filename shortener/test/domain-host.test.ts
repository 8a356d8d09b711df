import { describe, expect, test } from "bun:test";
import { parseDomainHost, RequestHostNames, requestHostName } from "../src/domains/domain-host.ts";

describe("a domain's host", () => {
  test.each([
    ["go.brand.example", "go.brand.example"],
    ["Go.Brand.EXAMPLE.", "go.brand.example"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["a-b.c-d.example", "a-b.c-d.example"],
  ])("%s is kept as %s", (raw, host) => {
    expect(parseDomainHost(raw)).toEqual({ host });
  });

  test.each([
    "",
    "localhost",
    "example",
    "10.0.0.1",
    "[::1]",
    "go.brand.example:443",
    "https://go.brand.example",
    "go.brand.example/x",
    "*.example",
    "-a.example",
    "a-.example",
    "a..example",
    "a b.example",
    "a%2e.example",
    `${"a".repeat(64)}.example`,
    `${"a.".repeat(127)}a`,
  ])("%j is refused", (raw) => {
    expect(parseDomainHost(raw)).toHaveProperty("problem");
  });
});

describe("the host a request asked", () => {
  test("is its name without port or trailing dot, lower case; nothing that is no authority", () => {
    expect(requestHostName("Go.Brand.Example.:8080")).toBe("go.brand.example");
    expect(requestHostName("[::1]:3001")).toBe("[::1]");
    for (const bad of [null, undefined, "", "a b", "a/b", "user@host", "%41", "x".repeat(300)]) expect(requestHostName(bad)).toBeUndefined();
  });

  test("is the same through the memory of recent hosts, which keeps a bounded number", () => {
    const names = new RequestHostNames(2);
    expect([names.of("A.example"), names.of("A.example"), names.of("b.example"), names.of("c.example"), names.of("a b")]).toEqual([
      "a.example",
      "a.example",
      "b.example",
      "c.example",
      undefined,
    ]);
    expect(names.of(undefined)).toBeUndefined();
  });
});
