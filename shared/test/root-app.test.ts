import { describe, expect, test } from "bun:test";
import { rootApp } from "../src/http/root-app.ts";

describe("the app every service is built on", () => {
  // Served by a Bun server, routes go through Bun's own router; `handle` (in-process, as the suites call it) goes
  // through Elysia's, which by default found the path by skipping 11 characters of the URL.
  const app = rootApp()
    .get("/shorten/:code", ({ params }) => `stats of ${params.code}`)
    .get("/:code", ({ params }) => `redirect of ${params.code}`)
    .get("/health", () => "health");

  test.each(["a", "ab", "abc", "ab:80", "abcd", "127.0.0.1:3001"])("routes by the whole path with Host %s", async (host) => {
    expect(await (await app.handle(new Request(`http://${host}/shorten/x1`))).text()).toBe("stats of x1");
    expect(await (await app.handle(new Request(`http://${host}/x1`))).text()).toBe("redirect of x1");
    expect(await (await app.handle(new Request(`http://${host}/health?probe=1`))).text()).toBe("health");
  });
});
