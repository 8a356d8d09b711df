import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { TypeCompiler } from "elysia/type-system";
import { describeBodyFailure, errorRenderer, jsonBody, silentLogger, terseBodyFailures } from "../src/index.ts";
import { readJson } from "@linkgeo/testing";

const Point = t.Object({ latitude: t.Number(), longitude: t.Number(), id: t.Optional(t.Union([t.String(), t.Number()])) });
const Batch = t.Object({ points: t.Array(Point, { maxItems: 3 }), language: t.Optional(t.String()) });

/** An app whose one route sits in a plugin, as the services' routes do; Elysia's own message of each failure is kept. */
function appWith(terse: boolean) {
  const messages: string[] = [];
  const routes = new Elysia().post("/batch", ({ body }) => body, { body: Batch });
  const app = new Elysia()
    .onError({ as: "global" }, ({ error }) => {
      messages.push((error as Error).message);
    })
    .use(errorRenderer({ log: silentLogger }))
    .use(jsonBody())
    .use(routes);
  return { app: terse ? terseBodyFailures(app) : app, messages };
}

const post = (app: { handle(request: Request): Promise<Response> }, body: unknown) =>
  app.handle(new Request("http://localhost/batch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

// Thirty levels of arrays, a thousand times: 60 KB that Elysia would print with two spaces a level.
const deepLanguage = Array.from({ length: 1_000 }, () => JSON.parse("[".repeat(30) + "]".repeat(30)));

describe("a body that fails its route's schema", () => {
  test("is answered as before, but Elysia's message no longer prints the value", async () => {
    const answers: unknown[] = [];
    const messageLengths: number[] = [];
    for (const terse of [false, true]) {
      const { app, messages } = appWith(terse);
      for (const body of [{ points: [{ latitude: 1, longitude: 2 }], language: deepLanguage }, { points: [{ latitude: "x", longitude: 2 }] }]) {
        const response = await post(app, body);
        answers.push({ terse, status: response.status, body: await readJson(response) });
      }
      messageLengths.push(Math.max(...messages.map((message) => message.length)));
    }
    const refusals = [
      { code: "invalid_request", message: "field language: expected string" },
      { code: "invalid_request", message: "field points.0.latitude: expected number" },
    ];
    expect(answers).toEqual([false, true].flatMap((terse) => refusals.map((error) => ({ terse, status: 400, body: { error } }))));
    // Without it, the deep language is printed into the message: once in production, megabytes of it with indentation elsewhere.
    expect(messageLengths[0]).toBeGreaterThan(JSON.stringify(deepLanguage).length);
    expect(messageLengths[1]).toBeLessThan(100);
  });

  test("keeps passing what its schema takes, and the schema's JSON (the OpenAPI document's) is unchanged", async () => {
    const before = JSON.stringify(Batch);
    const { app } = appWith(true);
    const good = { points: [{ latitude: 1, longitude: 2, id: "a" }], language: "de" };
    expect(await readJson(await post(app, good))).toEqual(good);
    expect(JSON.stringify(Batch)).toBe(before);
  });

  test("checked by its route itself, is worded the same way from the first error", () => {
    const check = TypeCompiler.Compile(Batch);
    expect(describeBodyFailure(check, { points: [{ latitude: 1 }] })).toBe("field points.0.longitude is required");
    expect(describeBodyFailure(check, { points: [], language: deepLanguage })).toBe("field language: expected string");
  });
});

describe("a union that fails", () => {
  const Body = t.Object({
    title: t.Optional(t.Union([t.String({ maxLength: 5 }), t.Null()])),
    id: t.Optional(t.Union([t.String({ maxLength: 3 }), t.Number({ minimum: 0 })])),
    status: t.Optional(t.Union([t.Literal(301), t.Literal(302), t.Null()])),
  });
  const check = TypeCompiler.Compile(Body);

  test("is worded by the member of the value's type, naming its limit", () => {
    expect(describeBodyFailure(check, { title: "far too long" })).toBe("field title: expected string length less or equal to 5");
    expect(describeBodyFailure(check, { id: "abcd" })).toBe("field id: expected string length less or equal to 3");
    expect(describeBodyFailure(check, { id: -1 })).toBe("field id: expected number to be greater or equal to 0");
  });

  test("of constants says which it takes; a value of no member's type is told the types", () => {
    expect(describeBodyFailure(check, { status: 303 })).toBe("field status: expected one of 301, 302, null");
    expect(describeBodyFailure(check, { title: 5 })).toBe("field title: expected string or null");
    expect(describeBodyFailure(check, { id: true })).toBe("field id: expected string or number");
  });
});
