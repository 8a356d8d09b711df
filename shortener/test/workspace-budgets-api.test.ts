import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deleteKeysWithPrefix, readJson, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import { MemoryTokenBuckets, RedisTokenBuckets, type RateRule } from "@linkgeo/shared/rate-limit";
import Redis from "ioredis";
import { WorkspaceBudgets } from "../src/people/workspace-budgets.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** Five tokens, and a refill too slow to matter while a test runs (one a day). */
const fiveAtOnce: RateRule = { capacity: 5, perSecond: 1 / 86_400 };

/** People and workspaces on one shortener: two workspaces, each with a member and a key; a way to make a link as each. */
async function teams(api: TestShortener) {
  const admin = { authorization: `Bearer ${api.adminToken()}` };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const member = async (username: string) => {
    const person = { username, password: "a long passphrase" };
    await api.request("POST", "/admin/users", { json: person, headers: admin });
    return bearer((await readJson(await api.request("POST", "/login", { json: person }))).token);
  };
  const team = async (owner: Record<string, string>, name: string) => {
    const id = (await readJson(await api.request("POST", "/workspaces", { json: { name }, headers: owner }))).id as number;
    const keys = await Promise.all(
      ["one", "two"].map(async (keyName) =>
        bearer(
          (
            await readJson(
              await api.request("POST", `/workspaces/${id}/api-keys`, { json: { name: keyName, scopes: ["links:write", "links:read"] }, headers: owner }),
            )
          ).key,
        ),
      ),
    );
    return { id, owner, keys };
  };
  const [ada, bea] = await Promise.all([member("ada"), member("bea")]);
  const [first, second] = await Promise.all([team(ada, "First"), team(bea, "Second")]);
  const create = async (headers: Record<string, string>, json: Record<string, unknown> = {}) =>
    api.request("POST", "/shorten/", { json: { long_url: "https://example.com/team", ...json }, headers });
  return { admin, first, second, create };
}

describe("a workspace's rate limit (RATE_LIMIT_WORKSPACE)", () => {
  let api: TestShortener;
  let people: Awaited<ReturnType<typeof teams>>;

  beforeAll(async () => {
    api = await startTestShortener({ hashPassword: cheapPasswordHash, workspaceBudgets: new WorkspaceBudgets(new MemoryTokenBuckets(), fiveAtOnce) });
    people = await teams(api);
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("its members and keys spend one budget together; another workspace, the admins and anonymous links do not", async () => {
    const { first, second, admin, create } = people;
    // Five links between the owner and both keys, then each of them is refused.
    const made = [];
    for (const headers of [first.owner, first.keys[0]!, first.keys[1]!, first.keys[0]!, first.owner]) made.push((await create(headers)).status);
    expect(made).toEqual([201, 201, 201, 201, 201]);
    for (const headers of [first.owner, first.keys[0]!, first.keys[1]!]) {
      const refused = await create(headers);
      expect(refused.status).toBe(429);
      expect((await readJson(refused)).error.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("ratelimit-limit")).toBe("5");
    }
    // Its listing is work for it too; reading one of its links is not.
    expect((await api.request("GET", `/shorten/?workspace=${first.id}`, { headers: first.owner })).status).toBe(429);
    expect((await api.request("GET", "/admin/export/links", { headers: first.keys[0]! })).status).toBe(429);
    const link = await readJson(await create(admin, { workspace: first.id }));
    expect((await api.request("GET", `/shorten/${link.short_url}/`, { headers: first.owner })).status).toBe(200);

    expect((await create(second.owner)).status).toBe(201);
    expect((await create(second.keys[0]!)).status).toBe(201);
    expect((await create(admin, { workspace: first.id })).status).toBe(201);
    expect((await api.request("GET", `/shorten/?workspace=${first.id}`, { headers: admin })).status).toBe(200);
    expect((await create({})).status).toBe(201);
  });

  test("a bulk create spends a token an item: a workspace's items all go, or each is 429 in its place", async () => {
    const { second, create } = people;
    // second has 3 tokens left: 2 items pass, then 4 do not, while the others' items do.
    const bulk = (links: object[]) => api.request("POST", "/shorten/bulk/", { json: { links }, headers: second.owner });
    const fits = await readJson(await bulk([{ long_url: "https://example.com/a" }, { long_url: "https://example.com/b" }]));
    expect(fits.results.map((result: { status: number }) => result.status)).toEqual([201, 201]);
    const over = await readJson(await bulk([1, 2, 3, 4].map((n) => ({ long_url: `https://example.com/over/${n}` }))));
    expect(over.results.map((result: { status: number; error?: { code: string } }) => [result.status, result.error?.code])).toEqual(
      [1, 2, 3, 4].map(() => [429, "rate_limited"]),
    );
    expect((await create(second.owner)).status).toBe(201);
    expect((await create(second.owner)).status).toBe(429);
  });
});

describe("a workspace's rate limit on imports", () => {
  test("an import into a workspace spends a token a link stored, a batch at a time; a dry run spends none", async () => {
    await using api = await startTestShortener({
      hashPassword: cheapPasswordHash,
      workspaceBudgets: new WorkspaceBudgets(new MemoryTokenBuckets(), fiveAtOnce),
    });
    const { first } = await teams(api);
    const rows = (names: string[]) => `${names.map((name) => JSON.stringify({ short_url: name, long_url: `https://example.com/${name}` })).join("\n")}\n`;
    const upload = async (names: string[], dryRun = false) => {
      const response = await api.request("POST", `/admin/import?workspace=${first.id}&format=linkgeo-ndjson&dry_run=${dryRun}`, {
        body: rows(names),
        headers: { ...first.owner, "content-type": "application/x-ndjson" },
      });
      return (await response.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
    };
    expect((await upload(["dry-1", "dry-2", "dry-3", "dry-4", "dry-5", "dry-6"], true)).at(-1).summary).toMatchObject({ imported: 6, dry_run: true });
    expect((await upload(["imp-1", "imp-2", "imp-3"])).at(-1).summary).toMatchObject({ imported: 3 });
    expect((await upload(["imp-4", "imp-5", "imp-6"])).at(-1)).toEqual({
      error: { code: "rate_limited", message: expect.stringMatching(/^too many requests, retry in \d+ seconds?$/) },
    });
    expect(await api.db.links.find("imp-4")).toBeNull();
    expect((await upload(["imp-7", "imp-8"])).at(-1).summary).toMatchObject({ imported: 2 });
  });
});

describe("a workspace's rate limit on two replicas sharing Redis", () => {
  const prefix = uniqueRedisPrefix("workspace_budgets");
  const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
  const replicas: TestShortener[] = [];
  const budgetsInRedis = () => new WorkspaceBudgets(new RedisTokenBuckets(redis, { processName: "shortener" }), fiveAtOnce);

  beforeAll(async () => {
    // Two apps on one database, each with its own buckets on the same Redis: two replicas.
    const first = await startTestShortener({ hashPassword: cheapPasswordHash, workspaceBudgets: budgetsInRedis() });
    replicas.push(first, await startTestShortener({ database: first.db, hashPassword: cheapPasswordHash, workspaceBudgets: budgetsInRedis() }));
  });
  afterAll(async () => {
    await replicas[1]?.[Symbol.asyncDispose]();
    await replicas[0]?.[Symbol.asyncDispose]();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl, prefix);
  });

  test("what a workspace spent on one replica, the other refuses past", async () => {
    const [one, two] = replicas as [TestShortener, TestShortener];
    const { first: team } = await teams(one);
    const create = (replica: TestShortener, headers: Record<string, string>) =>
      replica.request("POST", "/shorten/", { json: { long_url: "https://example.com/spread" }, headers });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await create(i % 2 === 0 ? one : two, team.keys[i % 2]!)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await create(one, team.owner)).status).toBe(429);
  });
});
