/**
 * The real shortener as a benchmark child (`bun run src/main.ts` on Postgres
 * and Redis), and what the redirect benchmarks do with it: create a link,
 * probe its redirect by hand, read its access_count. Used by
 * bench/redirects.ts (the shortener itself) and bench/gateway-redirects.ts
 * (the same shortener behind the gateway).
 */
import { join } from "node:path";
import { freePort, testRedisUrl, type TestDatabase } from "@linkgeo/testing";
import { spawnChild, waitForReady, type Child } from "./children.ts";
import { BenchError } from "./lifecycle.ts";
import type { Settings } from "./settings.ts";

const shortenerDir = join(import.meta.dir, "..", "..", "shortener");

/** The long URL of every link the benchmarks create. */
export const longUrl = "https://example.com/bench/landing-page";
/**
 * What a visitor's browser sends with each redirect, and the address the
 * gateway would forward (the benchmark, on 127.0.0.1, is a trusted proxy):
 * analytics classify them as they would a real visit.
 */
export const visitorHeaders = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  referer: "https://news.example.com/some/article",
  "accept-language": "en-GB,en;q=0.9",
  "x-forwarded-for": "131.111.8.46",
};

/** What the shortener sends with each redirect (and so the bare server too). */
export const redirectCacheControl = "private, max-age=0";

export interface Shortener {
  /** Its origin, `http://127.0.0.1:<port>`. */
  base: string;
  child: Child;
}

/**
 * `database`: where it stores (a test database's, or any DATABASE_URL).
 * `env` is laid over the benchmark's own (ANALYTICS=off, say). `dir`: the
 * shortener folder to run, by default this tree's (another checkout's, to
 * measure an older version in the same run).
 */
export async function startShortener(
  settings: Settings,
  database: Pick<TestDatabase, "url">,
  redisPrefix: string,
  env: Record<string, string> = {},
  dir = shortenerDir,
): Promise<Shortener> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawnChild("shortener", [process.execPath, "run", "src/main.ts"], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      ELYSIA_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
      ...env,
    },
  });
  await waitForReady(child, base);
  return { base, child };
}

/**
 * Creates a link to `longUrl` with `POST <base>/shorten/` (the shortener's or
 * the gateway's), with any link options (`max_visits`, `rules`), and returns its code.
 */
export async function createLink(base: string, options: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${base}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl, ...options }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new BenchError(`POST ${base}/shorten/ answered ${response.status}: ${text}`);
  const code = (JSON.parse(text) as { short_url?: unknown }).short_url;
  if (typeof code !== "string") throw new BenchError(`POST ${base}/shorten/ answered without short_url: ${text}`);
  return code;
}

/**
 * One redirect by hand: checks it is a 302 with the shortener's Cache-Control
 * (and, when given, the expected Location) and returns the Location the bare
 * server must copy.
 */
export async function probeRedirect(url: string, expectedLocation?: string): Promise<{ location: string }> {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new BenchError(`GET ${url} answered ${response.status}, not a 302 with Location`);
  if (expectedLocation !== undefined && location !== expectedLocation) throw new BenchError(`GET ${url} redirects to ${location}, not ${expectedLocation}`);
  const cacheControl = response.headers.get("cache-control");
  if (cacheControl !== redirectCacheControl) throw new BenchError(`GET ${url} answered Cache-Control "${cacheControl}", not "${redirectCacheControl}"`);
  return { location };
}

/** The link's access_count, from `GET <base>/shorten/<code>/stats/` (the shortener's or the gateway's). */
export async function accessCount(base: string, code: string): Promise<number> {
  const response = await fetch(`${base}/shorten/${code}/stats/`);
  if (response.status !== 200) throw new BenchError(`GET ${base}/shorten/${code}/stats/ answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { access_count?: unknown };
  if (typeof body.access_count !== "number") throw new BenchError(`stats without a numeric access_count: ${JSON.stringify(body)}`);
  return body.access_count;
}

/**
 * The count once it stops moving: requests wrk abandoned when its timer
 * ran out may still be committing.
 */
export async function settledAccessCount(base: string, code: string): Promise<number> {
  let previous = await accessCount(base, code);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await Bun.sleep(150);
    const current = await accessCount(base, code);
    if (current === previous) return current;
    previous = current;
  }
  throw new BenchError("access_count was still changing 10 s after wrk stopped");
}
