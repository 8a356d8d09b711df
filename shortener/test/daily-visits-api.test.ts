import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const today = new Date("2026-11-22T10:30:00.000Z");
const dayMs = 86_400_000;

describe.each(["sqlite", "postgres"] as const)("GET /admin/visits/daily/ on %s", (engine) => {
  let api: TestShortener;
  let now = today;
  beforeAll(async () => {
    // Analytics on, as main.ts runs it, with no country data (countries do not matter here).
    api = await startTestShortener({ engine, clock: () => now, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const asAdmin = (path: string) => api.request("GET", path, { headers: { authorization: `Bearer ${api.adminToken()}` } });

  /** Real redirects of `code`, `count` of them, at `when`. */
  async function redirects(code: string, count: number, when: Date) {
    now = when;
    for (let i = 0; i < count; i++)
      expect(
        (await api.request("GET", `/${code}/`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" } })).status,
      ).toBe(302);
    now = today;
  }

  test("one count per UTC day, oldest first, ending today; the same numbers as each link's visits report", async () => {
    const [a, b, quiet] = [await api.createLink(), await api.createLink(), await api.createLink()];
    await redirects(a.short_url, 2, new Date(today.getTime() - 13 * dayMs)); // the first day of 14
    await redirects(a.short_url, 1, new Date(today.getTime() - 14 * dayMs)); // the day before: outside
    await redirects(a.short_url, 3, new Date("2026-11-22T00:00:00.000Z")); // today, at midnight
    await redirects(b.short_url, 1, new Date("2026-11-21T23:59:59.999Z")); // yesterday, its last moment
    await redirects(b.short_url, 4, today);

    const response = await asAdmin(`/admin/visits/daily/?codes=${a.short_url},${b.short_url},${quiet.short_url},NoSuchLink`);

    expect(response.status).toBe(200);
    const body = await readJson(response);
    const zeros = (n: number) => new Array<number>(n).fill(0);
    expect(body).toEqual({
      from: "2026-11-09T00:00:00.000Z",
      to: today.toISOString(),
      days: 14,
      analytics: "on",
      links: {
        [a.short_url]: [2, ...zeros(12), 3],
        [b.short_url]: [...zeros(12), 1, 4],
        [quiet.short_url]: zeros(14),
        NoSuchLink: zeros(14),
      },
    });
    for (const link of [a, b]) {
      const report = await readJson(await asAdmin(`/shorten/${link.short_url}/visits/?from=${body.from}&to=${body.to}&granularity=day`));
      expect(report.series.map((point: { visits: number }) => point.visits)).toEqual(body.links[link.short_url]);
    }
  });

  test("days from 1 to 90; one day is today alone", async () => {
    const link = await api.createLink();
    await redirects(link.short_url, 2, today);
    const one = await readJson(await asAdmin(`/admin/visits/daily?codes=${link.short_url}&days=1`));
    expect(one).toEqual({ from: "2026-11-22T00:00:00.000Z", to: today.toISOString(), days: 1, analytics: "on", links: { [link.short_url]: [2] } });
    const ninety = await readJson(await asAdmin(`/admin/visits/daily?codes=${link.short_url}&days=90`));
    expect(ninety.links[link.short_url]).toHaveLength(90);
    expect(ninety.from).toBe("2026-08-25T00:00:00.000Z");
  });

  test("a code named twice is answered once; names that look like object keys are plain codes", async () => {
    const response = await asAdmin("/admin/visits/daily?codes=__proto__,constructor,__proto__&days=2");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      `{"from":"2026-11-21T00:00:00.000Z","to":"${today.toISOString()}","days":2,"analytics":"on","links":{"__proto__":[0,0],"constructor":[0,0]}}`,
    );
  });

  test("an admin session cookie works too; a manage token is 403, nothing is 401", async () => {
    const link = await api.createLink();
    await api.db.admins.insert({ username: "alice", passwordHash: await Bun.password.hash("a password", { algorithm: "bcrypt", cost: 4 }), createdAt: today });
    const signIn = await api.request("POST", "/admin/session", { json: { username: "alice", password: "a password" } });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await api.request("GET", `/admin/visits/daily?codes=${link.short_url}`, { headers: { cookie } })).status).toBe(200);
    expect(
      (await api.request("GET", `/admin/visits/daily?codes=${link.short_url}`, { headers: { authorization: `Bearer ${link.manage_token}` } })).status,
    ).toBe(403);
    expect((await api.request("GET", `/admin/visits/daily?codes=${link.short_url}`)).status).toBe(401);
  });

  test.each([
    ["no codes", "", "codes is required"],
    ["an empty list", "codes=", "comma-separated list"],
    ["an empty entry", "codes=abc,,def", "comma-separated list"],
    ["a code with a dot", "codes=abc,a.b.c", "comma-separated list"],
    ["a NUL", "codes=abc%00", "comma-separated list"],
    ["101 codes", `codes=${Array.from({ length: 101 }, (_, i) => `code${i}`).join(",")}`, "at most 100"],
    ["days=0", "codes=abc&days=0", "days must be a whole number from 1 to 90"],
    ["days=91", "codes=abc&days=91", "days must be a whole number from 1 to 90"],
    ["days=1.5", "codes=abc&days=1.5", "days must be a whole number from 1 to 90"],
    ["days=abc", "codes=abc&days=abc", "days must be a whole number from 1 to 90"],
    ["days=-1", "codes=abc&days=-1", "days must be a whole number from 1 to 90"],
    ["days=", "codes=abc&days=", "days must be a whole number from 1 to 90"],
  ])("answers 400 invalid_request for %s", async (_, query, mention) => {
    const response = await asAdmin(`/admin/visits/daily?${query}`);
    expect(response.status).toBe(400);
    const error = (await readJson(response)).error;
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(mention);
  });

  test("100 codes are fine", async () => {
    const codes = Array.from({ length: 100 }, (_, i) => `code${i}`);
    const body = await readJson(await asAdmin(`/admin/visits/daily?codes=${codes.join(",")}&days=3`));
    expect(Object.keys(body.links)).toEqual(codes);
  });
});
