import { describe, expect, test } from "bun:test";
import { batchableRedirect } from "../src/proxy/batchable-redirect.ts";

const client = { requestId: "req-1", address: "203.0.113.5", viaTrustedProxy: false };
const item = (host: string) => {
  const request = new Request("http://gateway/promo/", { headers: { host } });
  return batchableRedirect(request, new URL(`http://${host}/promo/`), client);
};

describe("a redirect the batch may carry", () => {
  test("carries the host asked, which picks the link's domain", () => {
    expect(item("go.brand.example")?.host).toBe("go.brand.example");
    expect(item("go.brand.example:8080")?.host).toBe("go.brand.example:8080");
  });

  test("a host longer than an item may carry goes by the proxy, so it cannot fail the batch it would join", () => {
    const long = `${"a".repeat(63)}.`.repeat(5).concat("example");
    expect(long.length).toBeGreaterThan(300);
    expect(URL.canParse(`http://${long}/`)).toBe(true);
    expect(item(long)).toBeUndefined();
  });
});
