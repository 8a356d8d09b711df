import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestDatabase, deleteKeysWithPrefix, runBounded, tally, type TestDatabase, testRedisUrl, uniqueRedisPrefix, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { settleVisitLog, visitLogLockId } from "../../src/storage/postgres/postgres-visit-log.ts";
import { namedValuesPerDay, otherValue } from "../../src/visits/named-values.ts";
import { visitLogRowsPerStep } from "../../src/visits/visit-log.ts";
import { analyticsBeside, expectAnalyticsInStep, type AnalyticsSample } from "../support/analytics-in-step.ts";
import { startShortener, startShortenersTogether, type ShortenerProcess } from "../support/shortener-process.ts";

// Real processes, one real Postgres database and the machine's Redis: the
// API promises N redirects raise access_count by exactly N, from any number
// of replicas, and a redirect that answered is counted even if the process
// dies right after.

interface Outcome {
  /** 0 when the request failed without a response (connection refused or reset). */
  status: number;
  location: string | null;
}

interface CreatedLink {
  code: string;
  longUrl: string;
}

let database: TestDatabase;
let sql: postgres.Sql;
const redisPrefix = uniqueRedisPrefix("exact_counts");

beforeAll(async () => {
  database = await createTestDatabase("exact_counts");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
  await deleteKeysWithPrefix(testRedisUrl, redisPrefix);
});

const env = () => ({ DATABASE_URL: database.url, REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: redisPrefix });

async function createLink(shortener: ShortenerProcess, longUrl: string): Promise<CreatedLink> {
  const response = await fetch(`${shortener.url}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl }),
  });
  const body = (await response.json()) as { short_url: string; long_url: string };
  expect({ status: response.status, long_url: body.long_url }).toEqual({ status: 201, long_url: longUrl });
  return { code: body.short_url, longUrl };
}

// Visitors of several kinds and countries; the test is the gateway on this machine (a trusted proxy).
const visitors: Array<Record<string, string>> = [
  {
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "x-forwarded-for": "141.20.5.188",
    referer: "https://news.example/a",
  },
  {
    "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "x-forwarded-for": "133.11.0.1",
  },
  { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "x-forwarded-for": "128.32.1.1" },
  { "user-agent": "curl/8.5.0", "x-forwarded-for": "2001:638:700::1", referer: "not a url" },
];
let visitorTurn = 0;

async function redirect(shortener: ShortenerProcess, code: string, extraHeaders: Record<string, string> = {}): Promise<Outcome> {
  try {
    const headers = { ...visitors[visitorTurn++ % visitors.length]!, ...extraHeaders };
    const response = await fetch(`${shortener.url}/${code}/`, { redirect: "manual", headers });
    await response.arrayBuffer();
    return { status: response.status, location: response.headers.get("location") };
  } catch {
    return { status: 0, location: null };
  }
}

async function stats(shortener: ShortenerProcess, code: string): Promise<unknown> {
  const response = await fetch(`${shortener.url}/shorten/${code}/stats/`);
  return { status: response.status, body: await response.json() };
}

/** A link's referrer rows per UTC day: how many values are named, and the visits counted as other. */
async function referrersPerDay(code: string): Promise<Array<{ named: number; other: number }>> {
  return sql<Array<{ named: number; other: number }>>`
    SELECT count(*) FILTER (WHERE value <> ${otherValue})::int AS named, coalesce(sum(visits) FILTER (WHERE value = ${otherValue}), 0)::int AS other
    FROM link_fact_rows WHERE code = ${code} AND dimension = 'referrers' GROUP BY day ORDER BY day`;
}

/** analyticsBeside for several links, each in one statement of its own. */
async function analyticsOfMany(codes: readonly string[]): Promise<AnalyticsSample[]> {
  return Promise.all(codes.map((code) => analyticsBeside(sql, code)));
}

async function countInDatabase(code: string): Promise<number> {
  const rows = await sql<{ access_count: string }[]>`SELECT access_count FROM links WHERE code = ${code}`;
  return Number(rows[0]?.access_count);
}

describe("exact access counts across processes", () => {
  test("counts every redirect exactly across three replicas", async () => {
    // Started together on a fresh database: they also race for the migrations.
    await using stack = new AsyncDisposableStack();
    const replicas = await startShortenersTogether(stack, ["replica-a", "replica-b", "replica-c"], env());

    const links = await Promise.all([0, 1, 2, 3, 4].map((i) => createLink(replicas[i % 3]!, `https://example.com/exact/${i}`)));

    // 3 replicas × 5 links: index i goes to replica i % 3 and link i % 5,
    // so every (replica, link) pair gets the same share of the 3000 requests.
    const total = 3000;
    // While the load runs, the analytics are sampled: in step with the counts at every moment.
    let loading = true;
    const samples: AnalyticsSample[] = [];
    const sampling = (async () => {
      while (loading) for (const link of links) samples.push(await analyticsBeside(sql, link.code));
    })();
    const outcomes = await runBounded(total, 64, async (i) => {
      const link = links[i % links.length]!;
      return { code: link.code, ...(await redirect(replicas[i % replicas.length]!, link.code)) };
    });
    loading = false;
    await sampling;
    expect(samples.filter((sample) => sample.count > 0 && sample.count < total / links.length).length).toBeGreaterThan(0);
    for (const sample of samples) expectAnalyticsInStep(sample);
    for (const link of links) expectAnalyticsInStep(await analyticsBeside(sql, link.code));

    expect(tally(outcomes.map((o) => `${o.status} ${o.code} → ${o.location}`))).toEqual(
      Object.fromEntries(links.map((link) => [`302 ${link.code} → ${link.longUrl}`, total / links.length])),
    );

    // Every replica reads the same, exact counts.
    const redirected = tally(outcomes.filter((o) => o.status === 302).map((o) => o.code));
    for (const replica of replicas) {
      const seen = await Promise.all(links.map((link) => stats(replica, link.code)));
      expect(seen).toEqual(
        links.map((link) => ({
          status: 200,
          body: { short_url: link.code, access_count: redirected[link.code], last_accessed_at: expect.any(String) },
        })),
      );
    }
  });

  test("a flood of new Referer hosts on three replicas names at most the bound a day, in step at every moment", async () => {
    await using stack = new AsyncDisposableStack();
    const replicas = await startShortenersTogether(stack, ["flood-a", "flood-b", "flood-c"], env());
    const link = await createLink(replicas[0]!, "https://example.com/exact/flood");

    const total = 1200;
    let loading = true;
    const samples: AnalyticsSample[] = [];
    const sampling = (async () => {
      while (loading) samples.push(await analyticsBeside(sql, link.code));
    })();
    const outcomes = await runBounded(total, 64, (i) => redirect(replicas[i % replicas.length]!, link.code, { referer: `https://flood-${i}.example/` }));
    loading = false;
    await sampling;

    expect(tally(outcomes.map((o) => `${o.status} ${o.location}`))).toEqual({ [`302 ${link.longUrl}`]: total });
    for (const sample of samples) expectAnalyticsInStep(sample);
    expectAnalyticsInStep(await analyticsBeside(sql, link.code));
    // Every redirect brought a host never seen before. Normally one UTC day; a load across midnight starts the next one afresh.
    // The bound is kept as the log is summed: sum what is left, as a read does.
    await settleVisitLog(sql);
    const days = await referrersPerDay(link.code);
    expect(days.filter((day) => day.named > namedValuesPerDay)).toEqual([]);
    expect(days.reduce((sum, day) => sum + day.named + day.other, 0)).toBe(total);
    if (days.length === 1) expect(days[0]).toEqual({ named: namedValuesPerDay, other: total - namedValuesPerDay });
  });

  test("redirects spread over many links on three replicas: each link counted exactly, its analytics in step while they run", async () => {
    await using stack = new AsyncDisposableStack();
    const replicas = await startShortenersTogether(stack, ["spread-a", "spread-b", "spread-c"], env());
    const links = await Promise.all(Array.from({ length: 60 }, (_, i) => createLink(replicas[i % 3]!, `https://example.com/exact/spread-${i}`)));
    const codes = links.map((link) => link.code);

    let loading = true;
    const samples: AnalyticsSample[][] = [];
    const sampling = (async () => {
      while (loading) samples.push(await analyticsOfMany(codes));
    })();
    const total = 1800;
    // Each request to a link drawn at random, as traffic over a long tail comes.
    const picks = Array.from({ length: total }, () => Math.floor(Math.random() * links.length));
    const outcomes = await runBounded(total, 48, (i) => redirect(replicas[i % 3]!, codes[picks[i]!]!));
    loading = false;
    await sampling;

    expect(outcomes.filter((o) => o.status !== 302)).toEqual([]);
    const expected = tally(picks.map((pick) => codes[pick]!));
    const counted = await Promise.all(codes.map(async (code) => [code, await countInDatabase(code)] as const));
    expect(Object.fromEntries(counted.filter(([, count]) => count > 0))).toEqual(expected);
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) for (const one of sample) expectAnalyticsInStep(one);
    for (const one of await analyticsOfMany(codes)) expectAnalyticsInStep(one);
  });

  test("a replica killed in the middle of a summing step: every logged visit is summed once", async () => {
    // A backlog, as a burst leaves it when no replica summed for a while: links with 200 logged visits each,
    // every visit counted in access_count and waiting in the log. Twelve summing steps of it: room for the kill to
    // land in one after others committed, and no more for the witness to sum (sized in steps, so a change of the
    // step's size changes neither the check nor its time).
    const prefix = `kill${Date.now().toString(36)}`;
    const perLink = 200;
    const linkCount = (12 * visitLogRowsPerStep) / perLink;
    await sql`
      INSERT INTO links (code, long_url, manage_token_hash, access_count, created_at, updated_at)
      SELECT ${prefix} || n, 'https://example.com/backlog/' || n, md5(${prefix} || n), ${perLink}, now(), now() FROM generate_series(1, ${linkCount}) AS n`;
    await sql`
      INSERT INTO link_visit_log (code, at, humans, bots, facts)
      SELECT ${prefix} || n, now() - interval '1 minute', 1, 0,
        jsonb_build_array(jsonb_build_array('referrers', 'r' || (v % 7) || '.example', 1), jsonb_build_array('countries', 'DE', 1),
          jsonb_build_array('browsers', 'Firefox', 1), jsonb_build_array('os', 'Linux', 1), jsonb_build_array('devices', 'desktop', 1))
      FROM generate_series(1, ${linkCount}) AS n, generate_series(1, ${perLink}) AS v`;
    const codes = Array.from({ length: linkCount }, (_, i) => `${prefix}${i + 1}`);
    const logged = async () => Number((await sql<Array<{ n: string }>>`SELECT count(*) AS n FROM link_visit_log`)[0]!.n);
    const backlog = await logged();

    await using victim = await startShortener(env(), { name: "summing-victim" });
    // Killed while it holds the summing lock, with some steps already committed.
    await waitFor(
      "a summing step in progress after others committed",
      async () => {
        const [step] = await sql<Array<{ summing: boolean }>>`
          SELECT exists(SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = ${visitLogLockId} AND granted) AS summing`;
        return step!.summing && (await logged()) < backlog;
      },
      30_000,
    );
    victim.kill("SIGKILL");
    expect(await victim.exited).toBe(128 + 9);
    const left = await logged();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(backlog);
    // Summed and unsummed together, in one snapshot: never more or less than was counted.
    for (const one of await analyticsOfMany(codes)) expectAnalyticsInStep(one);

    await using witness = await startShortener(env(), { name: "summing-witness" });
    await waitFor("the witness to sum the rest", async () => (await logged()) === 0, 30_000);
    const [summed] = await sql<Array<{ buckets: number; referrers: number }>>`
      SELECT (SELECT sum(humans + bots) FROM link_visit_buckets WHERE code LIKE ${`${prefix}%`})::float8 AS buckets,
        (SELECT sum(visits) FROM link_fact_rows WHERE code LIKE ${`${prefix}%`} AND dimension = 'referrers')::float8 AS referrers`;
    expect(summed).toEqual({ buckets: linkCount * perLink, referrers: linkCount * perLink });
    for (const one of await analyticsOfMany(codes)) expect(one).toMatchObject({ count: perLink, buckets: perLink });
    // And the listing's sort keys (still 0 as inserted) are the counts.
    const [keys] = await sql<Array<{ stale: number }>>`
      SELECT count(*)::int AS stale FROM links WHERE code LIKE ${`${prefix}%`} AND sorted_access_count <> access_count`;
    expect(keys!.stale).toBe(0);
    expect(witness.output()).not.toContain("summing the visit log failed");
  });

  test("keeps every answered redirect when the process is SIGKILLed right after", async () => {
    await using victim = await startShortener(env(), { name: "victim" });
    await using witness = await startShortener(env(), { name: "witness" });
    const link = await createLink(witness, "https://example.com/sigkill");

    const total = 500;
    const outcomes = await runBounded(total, 100, () => redirect(victim, link.code));
    // No pause between the last 302 and the kill: nothing may still be
    // waiting to be written.
    victim.kill("SIGKILL");

    expect(tally(outcomes.map((o) => `${o.status} ${o.location}`))).toEqual({ [`302 ${link.longUrl}`]: total });
    expect(await victim.exited).toBe(128 + 9);
    expect(await stats(witness, link.code)).toEqual({
      status: 200,
      body: { short_url: link.code, access_count: total, last_accessed_at: expect.any(String) },
    });
  });

  test("never loses an answered redirect when SIGKILLed in the middle of a load", async () => {
    await using victim = await startShortener(env(), { name: "victim" });
    const link = await createLink(victim, "https://example.com/sigkill-midway");

    let answered = 0;
    const total = 1500;
    const load = runBounded(total, 64, async () => {
      const outcome = await redirect(victim, link.code);
      if (outcome.status === 302) answered++;
      return outcome;
    });
    await waitFor("200 redirects before the kill", () => answered >= 200, 15_000);
    victim.kill("SIGKILL");
    const outcomes = await load;
    expect(await victim.exited).toBe(128 + 9);

    const byStatus = tally(outcomes.map((o) => String(o.status)));
    const redirected = byStatus["302"] ?? 0;
    const failed = byStatus["0"] ?? 0;
    // Only answered redirects and requests cut off by the kill; never an error status.
    expect(Object.keys(byStatus).sort()).toEqual(["0", "302"]);
    // Every 302 is in the database. A request cut off after its commit but
    // before its answer may be counted too, so the count can only exceed
    // the 302s by requests that got no answer.
    const counted = await countInDatabase(link.code);
    expect(counted).toBeGreaterThanOrEqual(redirected);
    expect(counted).toBeLessThanOrEqual(redirected + failed);
    // The replica died between batches or in one: its analytics are in step all the same.
    expectAnalyticsInStep(await analyticsBeside(sql, link.code));
  });

  test("counts every redirect it answered while stopping gracefully on SIGTERM, and exits with 0", async () => {
    await using shortener = await startShortener(env(), { name: "stopping" });
    const link = await createLink(shortener, "https://example.com/sigterm");

    let answered = 0;
    let inFlight = 0;
    const total = 1000;
    const load = runBounded(total, 32, async () => {
      inFlight++;
      const outcome = await redirect(shortener, link.code);
      inFlight--;
      if (outcome.status === 302) answered++;
      return outcome;
    });
    await waitFor("100 redirects before SIGTERM", () => answered >= 100, 15_000);
    const inFlightAtSignal = inFlight;
    shortener.kill("SIGTERM");
    const outcomes = await load;
    const exitCode = await shortener.exited;

    expect(inFlightAtSignal).toBeGreaterThan(0);
    expect(exitCode).toBe(0);
    const byStatus = tally(outcomes.map((o) => String(o.status)));
    const redirected = byStatus["302"] ?? 0;
    // After the signal, new connections are refused (0); nothing answers
    // with an error status.
    expect(Object.keys(byStatus).filter((status) => status !== "302" && status !== "0")).toEqual([]);
    expect(await countInDatabase(link.code)).toBe(redirected);
    expect(shortener.output()).not.toContain("shutdown step failed");
  });
});
