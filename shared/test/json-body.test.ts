import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { bodyLimitOf, errorRenderer, jsonBody, maxBodyBytes, maxJsonDepth, silentLogger, type SpecialBody } from "../src/index.ts";
import { nestedJson, readJson } from "@linkgeo/testing";

const at = (path: string) => (request: Request) => new URL(request.url).pathname === path;
const bigBody: SpecialBody = { matches: at("/big"), maxBytes: 2 * maxBodyBytes };
const formBody: SpecialBody = { matches: at("/form"), readByRoute: true };

/** A service with one body bigger than the rest and one its route reads itself. */
const app = new Elysia()
  .use(errorRenderer({ log: silentLogger }))
  .use(jsonBody([bigBody, formBody]))
  .post("/small", ({ body }) => body)
  .post("/big", ({ body }) => body)
  .post("/form", ({ body }) => ({ read: body }), { parse: "text" });

const post = (path: string, body: string, type = "application/json") =>
  app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": type }, body }));
const jsonOf = (bytes: number) => JSON.stringify({ pad: "x".repeat(bytes - 10) });

describe("the JSON body parser, given a service's special bodies", () => {
  test("holds every body to 64 KiB, but one with a limit of its own to that limit", async () => {
    const over = jsonOf(maxBodyBytes + 100);
    expect((await post("/small", over)).status).toBe(413);
    expect(await readJson(await post("/big", over))).toEqual(JSON.parse(over));
    expect((await post("/big", jsonOf(2 * maxBodyBytes + 100))).status).toBe(413);
  });

  test("leaves a body its route reads to that route, in whatever type it comes; every other must be JSON", async () => {
    expect(await readJson(await post("/form", "password=a%20b", "application/x-www-form-urlencoded"))).toEqual({ read: "password=a%20b" });
    expect((await post("/small", "password=a", "application/x-www-form-urlencoded")).status).toBe(415);
  });

  test(`refuses a body nested deeper than ${maxJsonDepth} levels with a 400 naming the bound, before any schema sees it`, async () => {
    const deep = await post("/small", `{"title":${nestedJson(10_000)}}`);
    expect([deep.status, await readJson(deep)]).toEqual([
      400,
      { error: { code: "invalid_request", message: `request body nests deeper than ${maxJsonDepth} levels of arrays and objects` } },
    ]);
    const atTheBound = `{"title":${nestedJson(maxJsonDepth - 1)}}`;
    expect(await readJson(await post("/small", atTheBound))).toEqual(JSON.parse(atTheBound));
  });

  test("says the limit of a request: 64 KiB unless a special body with a limit matches", () => {
    const request = (path: string) => new Request(`http://localhost${path}`, { method: "POST" });
    expect(bodyLimitOf(request("/big"), [bigBody, formBody])).toBe(2 * maxBodyBytes);
    expect(bodyLimitOf(request("/form"), [bigBody, formBody])).toBe(maxBodyBytes);
    expect(bodyLimitOf(request("/big"), [])).toBe(maxBodyBytes);
  });
});
