import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, reply, startFakeProvider, startService, startServicesTogether, tally, waitFor, type ServiceProcess } from "@linkgeo/testing";

/** Each service's key prefix in a failover test's Redis. */
export const failoverPrefixes = { shortener: "failover-shortener:", geocoder: "failover-geocoder:", gateway: "failover-gateway:" } as const;

/** The create limit every failover test's gateway has: its bucket is the state a failover must keep. */
const createsPerHour = 12;
const linksBefore = 8;

export interface FailoverStack {
  gateway: ServiceProcess;
  /** Resolves once every service's `/ready` says all its checks pass (its Redis client among them). */
  allReady(what: string): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed answer of any endpoint.
  call(method: string, path: string, json?: unknown): Promise<{ status: number; location: string | null; body: any }>;
}

/**
 * A shortener (on a test database), a geocoder (on a fake Nominatim) and a
 * gateway, all three given `redisEnv` (REDIS_URL or REDIS_CLUSTER_NODES)
 * and a key prefix each; what starts is added to `stack`.
 */
export async function startFailoverStack(stack: AsyncDisposableStack, redisEnv: Record<string, string>): Promise<FailoverStack> {
  const database = await createTestDatabase("redis_failover");
  stack.defer(() => database.drop());
  const dir = mkdtempSync(join(tmpdir(), "redis-failover-stack-"));
  stack.defer(() => rmSync(dir, { recursive: true, force: true }));
  const provider = stack.use(startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") }));
  const [shortener, geocoder] = await startServicesTogether(stack, [
    { service: "shortener", env: { ...redisEnv, DATABASE_URL: database.url, REDIS_KEY_PREFIX: failoverPrefixes.shortener } },
    {
      service: "geocoder",
      env: {
        ...redisEnv,
        REDIS_KEY_PREFIX: failoverPrefixes.geocoder,
        NOMINATIM_REVERSER_REPLICA_URL_1: provider.url().toString(),
        NOMINATIM_RATE_LIMIT: "100",
        GEOCODER_CACHE_PATH: join(dir, "l2.db"),
        // The fake replica answers every point: LOCAL, last in the chain, would only lengthen the start.
        GEOCODER_LOCAL: "false",
      },
    },
  ]);
  const gateway = stack.use(
    await startService("gateway", {
      ...redisEnv,
      SHORTENER_URL: shortener.url,
      GEOCODER_URL: geocoder.url,
      REDIS_KEY_PREFIX: failoverPrefixes.gateway,
      RATE_LIMIT_CREATE: `${createsPerHour}/hour`,
      RATE_LIMIT_API: "off",
      UPSTREAM_TIMEOUT_MS: "5000",
    }),
  );
  const call = async (method: string, path: string, json?: unknown) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: json === undefined ? {} : { "content-type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
      redirect: "manual",
    }).catch(() => null);
    if (!response) return { status: 0, location: null, body: null };
    const text = await response.text();
    return {
      status: response.status,
      location: response.headers.get("location"),
      body: response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
    };
  };
  const allReady = (what: string) =>
    waitFor(
      what,
      async () => {
        for (const service of [shortener, geocoder, gateway]) {
          const ready = await fetch(`${service.url}/ready`, { signal: AbortSignal.timeout(2_000) })
            .then((response) => response.json() as Promise<{ status: string }>)
            .catch(() => null);
          if (ready?.status !== "ready") return false;
        }
        return true;
      },
      30_000,
    );
  await allReady("the three services ready, their Redis clients connected");
  return { gateway, allReady, call };
}

export interface FailoverSteps {
  /** After the links are made: resolves once every write so far is on the replicas. */
  replicated(): Promise<void>;
  /** Kills Redis's primary; resolves once a replica has taken over. */
  failOver(): Promise<void>;
}

export interface FailoverOutcome {
  links: { code: string; longUrl: string }[];
  redirects: number;
  geocodes: number;
  /** Geocodes answered between the kill and the promotion. */
  geocodesDuringOutage: number;
}

/**
 * Makes eight links (eight of the gateway's twelve create tokens), runs
 * redirects of them and geocodes of points never asked before through the
 * gateway, fails Redis over in the middle, and checks what must hold
 * through it: every redirect and geocode answered, every redirect counted
 * exactly once (no shortener died), and the create bucket taken over by the
 * new primary: exactly its four tokens left, not a fresh twelve.
 */
export async function loadThroughFailover({ call, allReady }: FailoverStack, steps: FailoverSteps): Promise<FailoverOutcome> {
  const links: { code: string; longUrl: string }[] = [];
  for (let i = 0; i < linksBefore; i++) {
    const longUrl = `https://example.com/failover/${i}`;
    const created = await call("POST", "/shorten/", { long_url: longUrl });
    expect(created.status).toBe(201);
    links.push({ code: created.body.short_url, longUrl });
  }
  await steps.replicated();

  let stopping = false;
  let redirectsDone = 0;
  const redirects: string[] = [];
  const geocodes: string[] = [];
  const redirecting = Promise.all(
    Array.from({ length: 6 }, async (_, worker) => {
      for (let n = worker; !stopping; n += 6) {
        const link = links[n % links.length]!;
        const answer = await call("GET", `/${link.code}/`);
        redirects.push(answer.status === 302 && answer.location === link.longUrl ? "redirected" : `${answer.status} ${answer.location}`);
        redirectsDone++;
      }
    }),
  );
  const geocoding = (async () => {
    for (let n = 0; !stopping; n++) {
      const answer = await call("GET", `/reverse-geocode?latitude=${(10 + n / 1000).toFixed(3)}&longitude=20.5`);
      geocodes.push(answer.status === 200 ? "answered" : String(answer.status));
    }
  })();

  let geocodesDuringOutage = 0;
  try {
    await waitFor("redirects before the failover", () => redirectsDone >= 150, 30_000);
    const geocodesAtKill = geocodes.length;
    await steps.failOver();
    geocodesDuringOutage = geocodes.length - geocodesAtKill;
    const afterPromotion = redirectsDone;
    await waitFor("redirects after the promotion", () => redirectsDone >= afterPromotion + 150, 30_000);
  } finally {
    stopping = true;
    await Promise.all([redirecting, geocoding]);
  }

  // Every client got its answer: Redis failing over cost the services their cache for a while, nothing else.
  expect(tally(redirects)).toEqual({ redirected: redirects.length });
  expect(tally(geocodes)).toEqual({ answered: geocodes.length });
  // Counted exactly: no shortener died, so each redirect is one count, none lost, none twice.
  const stats = await Promise.all(links.map((link) => call("GET", `/shorten/${link.code}/stats/`)));
  expect(stats.reduce((sum, s) => sum + (s.body.access_count as number), 0)).toBe(redirects.length);
  // The bucket went over to the new primary: the tokens it had left, not a fresh bucket. Asked once every
  // service's Redis client says it is connected (through Sentinel: reconnected; on a Cluster its CLUSTER INFO
  // goes to any node, so this says less, and the creates below are what show the bucket was found).
  await allReady("the three services ready again after the failover");
  const left = createsPerHour - linksBefore;
  const afterFailover: number[] = [];
  for (let i = 0; i < left + 2; i++) afterFailover.push((await call("POST", "/shorten/", { long_url: `https://example.com/failover/after/${i}` })).status);
  expect(afterFailover).toEqual([...Array<number>(left).fill(201), 429, 429]);
  return { links, redirects: redirects.length, geocodes: geocodes.length, geocodesDuringOutage };
}
