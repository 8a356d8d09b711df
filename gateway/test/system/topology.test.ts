import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTestDatabase,
  deleteKeysWithPrefix,
  runBounded,
  type ServiceProcess,
  startService,
  startServicesTogether,
  tally,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
} from "@linkgeo/testing";
import postgres from "postgres";
import { reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";
import { analyticsBeside, expectAnalyticsInStep } from "../../../shortener/test/support/analytics-in-step.ts";

// The compose topology as processes on 127.0.0.1: 3 shorteners on one
// Postgres database, 2 geocoders whose only provider is a fake Nominatim
// replica, and 1 gateway in front of them with the replicas as comma lists.
// Everything is observed from the outside: HTTP answers through the gateway
// and what each process prints (JSON access lines carrying the request id).

interface AccessLine {
  request_id: string;
  method: string;
  path: string;
  status: number;
}

interface Answer {
  /** 0 when the gateway gave no HTTP answer at all (connection refused or reset). */
  status: number;
  requestId: string | null;
  location: string | null;
  headers: Headers | null;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed answer of any endpoint, compared whole.
  body: any;
}

interface Link {
  code: string;
  longUrl: string;
}

const stack = new AsyncDisposableStack();
let shorteners: ServiceProcess[] = [];
let geocoders: ServiceProcess[] = [];
let gateway: ServiceProcess;
let provider: FakeProvider;
let databaseUrl: string;
/** Created in the first test, loaded in the second. */
const links: Link[] = [];

/** Access lines are many; the rest (warnings, start-up lines) goes to the test's stderr. */
const notAccessLine = (line: string) => !line.includes('"msg":"request"');

beforeAll(async () => {
  try {
    await startTopology();
  } catch (error) {
    // Whatever did start is stopped and removed now, not left to a hook that may not run.
    await stack.disposeAsync();
    throw error;
  }
}, 60_000);

afterAll(async () => {
  await stack.disposeAsync();
});

/** Everything is added to `stack` as it comes up, so disposing it cleans up in reverse order. */
async function startTopology(): Promise<void> {
  const database = await createTestDatabase("topology");
  stack.defer(() => database.drop());
  databaseUrl = database.url;

  const prefixes = {
    shortener: uniqueRedisPrefix("topology_shortener"),
    geocoder: uniqueRedisPrefix("topology_geocoder"),
    gateway: uniqueRedisPrefix("topology_gateway"),
  };
  // Deferred before any process starts, so it runs after all of them are gone.
  stack.defer(async () => {
    for (const prefix of Object.values(prefixes)) await deleteKeysWithPrefix(testRedisUrl, prefix);
  });

  const dir = mkdtempSync(join(tmpdir(), "topology-"));
  stack.defer(() => rmSync(dir, { recursive: true, force: true }));

  // One fake Nominatim replica for both geocoders, answering the same recorded payload to every query.
  provider = stack.use(startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") }));

  const logged = { LOG_LEVEL: "info", LOG_FORMAT: "json", ACCESS_LOG: "true" };
  const shortenerEnv = { ...logged, DATABASE_URL: database.url, REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: prefixes.shortener };
  const geocoderEnv = (n: number) => ({
    ...logged,
    REDIS_URL: testRedisUrl,
    REDIS_KEY_PREFIX: prefixes.geocoder,
    NOMINATIM_REVERSER_REPLICA_URL_1: provider.url().toString(),
    GEOCODER_CACHE_PATH: join(dir, `geocoder-${n}-l2.db`),
    // The fake Nominatim answers every point; LOCAL (last in the chain, a second or more of loading per start) is never asked.
    GEOCODER_LOCAL: "false",
  });
  // Started together: the shorteners also race for the migrations of the fresh database.
  const services = await startServicesTogether(stack, [
    ...[1, 2, 3].map((n) => ({ service: "shortener" as const, env: shortenerEnv, options: { name: `shortener-${n}`, echo: notAccessLine } })),
    ...[1, 2].map((n) => ({ service: "geocoder" as const, env: geocoderEnv(n), options: { name: `geocoder-${n}`, echo: notAccessLine } })),
  ]);
  shorteners = services.slice(0, 3);
  geocoders = services.slice(3);

  gateway = stack.use(
    await startService(
      "gateway",
      {
        LOG_FORMAT: "json",
        SHORTENER_URL: shorteners.map((s) => s.url).join(","),
        GEOCODER_URL: geocoders.map((g) => g.url).join(","),
        REDIS_URL: testRedisUrl,
        REDIS_KEY_PREFIX: prefixes.gateway,
        RATE_LIMIT_CREATE: "off",
        RATE_LIMIT_API: "off",
        // Far above a loaded 2-core machine's worst answer, far below the test's time.
        UPSTREAM_TIMEOUT_MS: "5000",
        // A dead replica is tried again after 1 s rather than 5: the last case waits for that try.
        UPSTREAM_EJECT_MS: "1000",
      },
      { name: "gateway" },
    ),
  );
}

async function call(method: string, path: string, json?: unknown): Promise<Answer> {
  try {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: json === undefined ? {} : { "content-type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
      redirect: "manual",
    });
    const text = await response.text();
    const isJson = response.headers.get("content-type")?.includes("json") ?? false;
    return {
      status: response.status,
      requestId: response.headers.get("x-request-id"),
      location: response.headers.get("location"),
      headers: response.headers,
      body: isJson && text ? JSON.parse(text) : text,
    };
  } catch {
    return { status: 0, requestId: null, location: null, headers: null, body: null };
  }
}

async function createLink(longUrl: string): Promise<Answer> {
  return call("POST", "/shorten/", { long_url: longUrl });
}

async function accessCounts(): Promise<number[]> {
  const answers = await Promise.all(links.map((link) => call("GET", `/shorten/${link.code}/stats/`)));
  expect(answers.map((a) => a.status)).toEqual(links.map(() => 200));
  return answers.map((a) => a.body.access_count as number);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The access lines a service printed, by request id. */
function accessLog(service: ServiceProcess): Map<string, AccessLine[]> {
  const byId = new Map<string, AccessLine[]>();
  for (const line of service.lines()) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line);
    if (entry.msg !== "request") continue;
    const found = byId.get(entry.request_id) ?? [];
    found.push({ request_id: entry.request_id, method: entry.method, path: entry.path, status: entry.status });
    byId.set(entry.request_id, found);
  }
  return byId;
}

/** How often the gateway logged that it ejected `replica`. */
function ejectionsOf(replica: ServiceProcess): { reason: string }[] {
  return gateway
    .lines()
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.msg === "upstream replica ejected" && entry.replica === replica.url);
}

describe("3 shorteners and 2 geocoders behind one gateway, as processes", () => {
  test("traffic reaches every replica, and the replica that served a request logs the X-Request-Id its client got", async () => {
    const sent: { service: "shortener" | "geocoder"; answer: Answer; method: string; path: string }[] = [];

    // One after another: round-robin puts two on each shortener.
    for (let i = 0; i < 6; i++) {
      const longUrl = `https://example.com/topology/${i}`;
      const answer = await createLink(longUrl);
      expect({ status: answer.status, long_url: answer.body?.long_url }).toEqual({ status: 201, long_url: longUrl });
      links.push({ code: answer.body.short_url, longUrl });
      sent.push({ service: "shortener", answer, method: "POST", path: "/shorten/" });
    }

    const redirects = await runBounded(30, 6, async (i) => {
      const link = links[i % links.length]!;
      const path = `/${link.code}/`;
      return { link, path, answer: await call("GET", path) };
    });
    expect(redirects.map((r) => `${r.answer.status} ${r.answer.location}`)).toEqual(redirects.map((r) => `302 ${r.link.longUrl}`));
    for (const r of redirects) sent.push({ service: "shortener", answer: r.answer, method: "GET", path: r.path });

    // Distinct coordinates: every query misses both cache levels and reaches the provider.
    const geocodes = await runBounded(20, 4, async (i) => {
      const path = `/reverse-geocode?latitude=${(10 + i / 100).toFixed(2)}&longitude=20.5`;
      return { path, answer: await call("GET", path) };
    });
    expect(
      geocodes.map((g) => [g.answer.status, g.answer.headers?.get("x-cache"), g.answer.headers?.get("x-geocoder-provider"), g.answer.body?.success]),
    ).toEqual(geocodes.map(() => [200, "MISS", "NOMINATIM_REPLICA_1", true]));
    expect(provider.requests).toHaveLength(20);
    for (const g of geocodes) sent.push({ service: "geocoder", answer: g.answer, method: "GET", path: "/reverse-geocode" });

    // A replica writes its access line after it answered: wait until every
    // id the clients got has shown up somewhere.
    const replicas = [...shorteners, ...geocoders];
    const ids = sent.map((s) => s.answer.requestId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    let logs = new Map<ServiceProcess, Map<string, AccessLine[]>>();
    await waitFor(
      "every request id to appear in a replica's access log",
      () => {
        logs = new Map(replicas.map((replica) => [replica, accessLog(replica)]));
        return ids.every((id) => replicas.some((replica) => logs.get(replica)!.has(id!)));
      },
      10_000,
    );

    // Each id in exactly one replica's log, of the right service, with what the client asked and got.
    const seen = sent.map((s) =>
      replicas.flatMap((replica) =>
        (logs.get(replica)!.get(s.answer.requestId!) ?? []).map((line) => `${replica.service} ${line.method} ${line.path} ${line.status}`),
      ),
    );
    expect(seen).toEqual(sent.map((s) => [`${s.service} ${s.method} ${s.path} ${s.answer.status}`]));

    const served = Object.fromEntries(replicas.map((replica) => [replica.name, sent.filter((s) => logs.get(replica)!.has(s.answer.requestId!)).length]));
    console.log("requests served per replica:", served);
    expect(Object.entries(served).filter(([, count]) => count === 0)).toEqual([]);
  });

  test("a shortener SIGKILLed under redirect load costs no client a failed request and loses no count", async () => {
    expect(links.length).toBeGreaterThan(0);
    const victim = shorteners[1]!;
    const before = await accessCounts();

    const total = 3000;
    const concurrency = 48;
    let started = 0;
    let completed = 0;
    const load = runBounded(total, concurrency, async (i) => {
      const link = links[i % links.length]!;
      started++;
      const answer = await call("GET", `/${link.code}/`);
      completed++;
      return { link, answer };
    });

    await waitFor("a third of the redirects before the kill", () => completed >= total / 3, 30_000);
    const completedBeforeKill = completed;
    victim.kill("SIGKILL");
    // Requests started before the process was seen gone: an upper bound on
    // what could still have been in flight on it when it died.
    let startedBeforeDeath = Number.POSITIVE_INFINITY;
    const death = victim.exited.then((code) => {
      startedBeforeDeath = started;
      return code;
    });
    const outcomes = await load;
    expect(await death).toBe(128 + 9);

    // Every client got its redirect: no 5xx from the gateway, no network error.
    expect(tally(outcomes.map((o) => `${o.answer.status} ${o.answer.location}`))).toEqual(
      Object.fromEntries(links.map((link) => [`302 ${link.longUrl}`, total / links.length])),
    );
    const redirected = outcomes.filter((o) => o.answer.status === 302).length;

    const after = await accessCounts();
    const counted = sum(after) - sum(before);
    // No count is lost: every 302 a client got was committed before it was sent.
    expect(counted).toBeGreaterThanOrEqual(redirected);
    // It may exceed them: a redirect the killed replica committed but whose
    // answer died with it is retried by the gateway (GET is idempotent) on
    // another replica, which counts it again. Only requests in flight on the
    // killed replica when it died can be counted twice, so the over-count is
    // at most those: never more than were in flight at all (the concurrency),
    // nor more than were started before it died and not finished before the kill.
    const overCount = counted - redirected;
    const inFlightBound = startedBeforeDeath - completedBeforeKill;
    expect(overCount).toBeLessThanOrEqual(Math.min(concurrency, inFlightBound));

    // Each link's analytics stayed in step with its count through the kill (bots and humans, every breakdown).
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      for (const link of links) expectAnalyticsInStep(await analyticsBeside(sql, link.code));
    } finally {
      await sql.end();
    }

    // The kill happened under load: the gateway met the dead replica and ejected it.
    expect(ejectionsOf(victim).length).toBeGreaterThan(0);
    // Over-counts the logs can show: ids the killed replica logged as answered
    // that a surviving replica answered again (its line may have died with it, so a lower bound).
    const victimLog = accessLog(victim);
    const survivorLogs = shorteners.filter((s) => s !== victim).map(accessLog);
    const servedTwice = outcomes.filter((o) => victimLog.has(o.answer.requestId!) && survivorLogs.some((log) => log.has(o.answer.requestId!))).length;
    expect(servedTwice).toBeLessThanOrEqual(overCount);
    console.log("kill under load:", {
      requests: total,
      concurrency,
      redirected,
      counted,
      overCount,
      inFlightBound,
      completedBeforeKill,
      servedTwice,
      victimServed: [...victimLog.values()].filter((lines) => lines.some((l) => l.status === 302)).length,
      ejections: ejectionsOf(victim),
    });
  });

  test("with one shortener dead, a POST that meets it is retried on another replica, and the gateway stays ready", async () => {
    const victim = shorteners[1]!;
    // Already dead after the test above; killed here too so this test stands alone.
    victim.kill("SIGKILL");
    await victim.exited;

    // The gateway leaves a failed replica out for a while, then tries it
    // again: the next request that meets it is refused (nothing reached the
    // service), ejects it once more and must be retried elsewhere. Create
    // links until that has happened to one of them.
    const ejectionsBefore = ejectionsOf(victim).length;
    const posts: Answer[] = [];
    const readiness: Answer[] = [];
    await waitFor(
      "a POST to meet the dead shortener (a new ejection in the gateway's log)",
      async () => {
        posts.push(await createLink(`https://example.com/after-kill/${posts.length}`));
        readiness.push(await call("GET", "/ready"));
        return ejectionsOf(victim).length > ejectionsBefore;
      },
      20_000,
    );

    expect(tally(posts.map((p) => String(p.status)))).toEqual({ "201": posts.length });
    expect(tally(readiness.map((r) => String(r.status)))).toEqual({ "200": readiness.length });
    // The new ejection was a refused connection: the POST never reached the dead replica.
    const latest = ejectionsOf(victim).at(-1)!;
    expect(latest.reason).toMatch(/ECONNREFUSED|ConnectionRefused/);
    console.log("POSTs while a shortener was dead:", { posts: posts.length, ejection: latest });
  });
});
