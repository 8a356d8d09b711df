import { join } from "node:path";
import { freePort, testRedisUrl } from "@linkgeo/testing";
import { spawnChild, waitForReady, type Child } from "./children.ts";
import type { Settings } from "./settings.ts";

const gatewayDir = join(import.meta.dir, "..", "..", "gateway");

// A rate limit, trusted proxy list or timeout in the caller's environment
// would change what is measured (RATE_LIMIT_REDIRECT would limit the very
// requests under test).
const gatewayVariable =
  /^(PORT|HOST|NODE_ENV|SHORTENER_URL|GEOCODER_URL|UPSTREAM_|REDIS_|RATE_LIMIT_|TRUSTED_PROXIES|LOG_LEVEL|LOG_FORMAT|ACCESS_LOG|INTERNAL_SECRET)/;

/**
 * `internalSecret` undefined: the gateway proxies each redirect on its own.
 * `dir`: the gateway folder to run, by default this tree's (another
 * checkout's, to measure an older version in the same run).
 */
export async function startGateway(
  settings: Settings,
  options: { name: string; shortenerUrl: string; redisPrefix: string; internalSecret: string | undefined; metricsPort?: number; dir?: string },
): Promise<{ base: string; child: Child }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !gatewayVariable.test(name)));
  const child = spawnChild(options.name, [process.execPath, "run", "src/main.ts"], {
    cwd: options.dir ?? gatewayDir,
    env: {
      ...inherited,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      SHORTENER_URL: options.shortenerUrl,
      // Not used by redirects; the shortener answers the gateway's /ready check for it.
      GEOCODER_URL: options.shortenerUrl,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: options.redisPrefix,
      RATE_LIMIT_CREATE: "off",
      RATE_LIMIT_API: "off",
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
      ...(options.internalSecret === undefined ? {} : { INTERNAL_SECRET: options.internalSecret }),
      ...(options.metricsPort === undefined ? {} : { METRICS_PORT: String(options.metricsPort) }),
    },
  });
  // "ready": both upstreams (here: the shortener twice) answer its /health.
  await waitForReady(child, base);
  return { base, child };
}
