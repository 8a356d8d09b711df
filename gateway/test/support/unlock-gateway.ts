import { clientOf, errorBody, parseIpRangeList, silentLogger, type Logger } from "@linkgeo/shared";
import { createApp, type GatewayDeps } from "../../src/app.ts";
import { readGatewayConfig } from "../../src/config.ts";
import { addressDigest } from "../../src/rate-limit/address-digest.ts";
import type { TokenBuckets } from "@linkgeo/shared/rate-limit";
import { UpstreamPool } from "../../src/upstreams/upstream-pool.ts";
import type { WebAssets } from "@linkgeo/webapp";
import { startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";

/** The one password the fake shortener takes, for every link. */
export const rightPassword = "open sesame";

/**
 * A shortener whose links are all protected: `POST /<code>` with the right
 * password (form or JSON) is a 303 to the target, any other is 401 in the
 * API's error shape, as the real one answers.
 */
export function startProtectedShortener(): FakeUpstream {
  return startFakeUpstream(async (request) => {
    const body = await request.text();
    const password = request.headers.get("content-type")?.startsWith("application/json")
      ? (JSON.parse(body) as { password?: string }).password
      : new URLSearchParams(body).get("password");
    if (password === rightPassword) return new Response(null, { status: 303, headers: { location: "https://example.com/secret" } });
    return Response.json(errorBody("unauthorized", "wrong password"), { status: 401 });
  });
}

// `app.handle` has no socket: the test plays the trusted proxy on this
// machine, and names each client in X-Forwarded-For as a load balancer would.
const trustedProxies = parseIpRangeList("127.0.0.1/8");
const viaLocalProxy = (request: Request) => clientOf("127.0.0.1", request.headers.get("x-forwarded-for"), trustedProxies);

export interface UnlockGatewayOptions {
  shortener: string;
  buckets: TokenBuckets;
  web: WebAssets;
  /** Default: the configuration's defaults. */
  rateLimits?: GatewayDeps["rateLimits"];
  log?: Logger;
  accessLog?: boolean;
  /** Default: one secret for every app of the test, as INTERNAL_SECRET is for every replica. */
  digestAddress?: (address: string) => string;
}

const sharedDigest = addressDigest("a secret every replica of this test shares".padEnd(32, "!"));

/** The gateway app with its real routing and limits, in front of `shortener`. */
export async function unlockGateway(options: UnlockGatewayOptions) {
  const log = options.log ?? silentLogger;
  const pool = (name: string, urls: string[]) => new UpstreamPool({ name, urls, refreshMs: 60_000, log });
  const upstreams = { shortener: pool("shortener", [options.shortener]), geocoder: pool("geocoder", ["http://127.0.0.1:1"]) };
  await Promise.all([upstreams.shortener.start(), upstreams.geocoder.start()]);
  return createApp({
    upstreams,
    buckets: options.buckets,
    rateLimits: options.rateLimits ?? readGatewayConfig({}).rateLimits,
    clientOf: viaLocalProxy,
    digestAddress: options.digestAddress ?? sharedDigest,
    upstreamTimeoutMs: 2_000,
    log,
    accessLog: options.accessLog,
    clock: () => new Date(),
    web: options.web,
  });
}

/** `POST /<code>` from `client` (through the trusted proxy), as an HTML form posts it or as JSON. */
export function passwordTry(path: string, client: string, password: string, as: "form" | "json" = "form"): Request {
  const body = as === "form" ? new URLSearchParams({ password }).toString() : JSON.stringify({ password });
  const contentType = as === "form" ? "application/x-www-form-urlencoded" : "application/json";
  return new Request(`http://gateway${path}`, { method: "POST", headers: { "content-type": contentType, "x-forwarded-for": client }, body });
}

/** The tries the shortener saw, by link and client (`/<code> <address>`). */
export function triesSeen(shortener: FakeUpstream): Map<string, number> {
  const seen = new Map<string, number>();
  for (const request of shortener.requests) {
    if (request.method !== "POST") continue;
    const key = `${request.path.replace(/\/$/, "")} ${request.headers["x-forwarded-for"]}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}
