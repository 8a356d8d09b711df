import { defaultTrustedProxies, parseIpRangeList, silentLogger } from "@linkgeo/shared";
import { createTestDatabase, readJson } from "@linkgeo/testing";
import { createApp, type ShortenerDeps } from "../../src/app.ts";
import { AdminTokens } from "../../src/auth/admin-tokens.ts";
import type { LinkCache } from "../../src/cache/link-cache.ts";
import { MemoryLinkCache } from "../../src/cache/memory-link-cache.ts";
import { openDatabase, type Database } from "../../src/storage/open-database.ts";
import { describeVisitorWith } from "../../src/visits/describe-visitor.ts";
import type { VisitClassifier } from "../../src/visits/visit-classifier.ts";
import { ApiKeys } from "../../src/auth/api-keys.ts";
import { OrphanVisits } from "../../src/visits/orphan-visits.ts";
import { VisitCounter, type VisitCounterObserver } from "../../src/visits/visit-counter.ts";
import type { ThreatRecheck } from "../../src/threats/threat-recheck.ts";

export const testSecretKey = "test-secret-key-that-is-long-enough-0123456789";
const testTrustedProxies = parseIpRangeList(defaultTrustedProxies);

export interface TestShortener extends AsyncDisposable {
  app: ReturnType<typeof createApp>;
  db: Database;
  cache: LinkCache;
  /** Visits that led nowhere; `drain()` writes what they hold, for a test to read. */
  orphans: OrphanVisits;
  apiKeys: ApiKeys;
  /** With `recheckEveryMs`: the threat recheck, never started, for a test to run by hand (runOnce). */
  recheck: ThreatRecheck | undefined;
  /** Sends a request to the app; `json` sets the body and Content-Type. */
  request(method: string, path: string, init?: { json?: unknown; headers?: Record<string, string>; body?: string }): Promise<Response>;
  /** Creates a link through the API and returns the 201 body. */
  createLink(longUrl?: string, alias?: string): Promise<{ short_url: string; manage_token: string; long_url: string }>;
  adminToken(username?: string): string;
}

export interface TestShortenerOptions
  extends Partial<Omit<ShortenerDeps, "links" | "admins" | "sessions" | "visits" | "visitStore" | "orphans" | "orphanStore">> {
  /** Analytics on with this classifier (as main.ts does with ANALYTICS=on); absent, visits are only counted. */
  visitClassifier?: Pick<VisitClassifier, "classify">;
  engine?: "sqlite" | "postgres";
  /** Share another test shortener's database (two replicas), or one opened by the test. */
  database?: Database;
  /** The VisitCounter's deadline per write (DATABASE_TIMEOUT_MS). */
  databaseTimeoutMs?: number;
  /** Told of every visit write (the metrics, when METRICS_PORT is set). */
  visitObserver?: VisitCounterObserver;
  /** THREAT_RECHECK_SECONDS in ms: builds the threat recheck on this database (TestShortener.recheck); absent, none. */
  recheckEveryMs?: number;
}

/** The real app on a real database (SQLite in memory by default, or a fresh Postgres database). */
export async function startTestShortener(options: TestShortenerOptions = {}): Promise<TestShortener> {
  const testDb = options.engine === "postgres" && !options.database ? await createTestDatabase("api") : undefined;
  const db =
    options.database ??
    (await openDatabase(testDb ? { engine: "postgres", url: testDb.url } : { engine: "sqlite", path: ":memory:" }).catch(async (error) => {
      await testDb?.drop();
      throw error;
    }));
  const clock = options.clock ?? (() => new Date());
  const cache = options.cache ?? new MemoryLinkCache();
  const visits = new VisitCounter(db.links, clock, {
    timeoutMs: options.databaseTimeoutMs,
    describe: options.visitClassifier && describeVisitorWith(options.visitClassifier, testTrustedProxies),
    observer: options.visitObserver,
  });
  const orphans = new OrphanVisits({ store: db.orphans, clock, log: options.log ?? silentLogger });
  const apiKeys = options.apiKeys ?? new ApiKeys({ store: db.apiKeys, clock, log: options.log ?? silentLogger });
  let recheck: ThreatRecheck | undefined;
  const app = createApp({
    log: silentLogger,
    secretKey: testSecretKey,
    readiness: { required: { database: () => db.ping() } },
    // app.handle has no socket: a test names the peer in X-Test-Peer; by default
    // it is the gateway on this machine, a trusted proxy.
    peerOf: (request) => request.headers.get("x-test-peer") ?? "127.0.0.1",
    describeVisitor: options.visitClassifier && describeVisitorWith(options.visitClassifier, testTrustedProxies),
    ...options,
    links: db.links,
    admins: db.admins,
    sessions: db.sessions,
    visitStore: db.visits,
    cache,
    visits,
    orphans,
    orphanStore: db.orphans,
    apiKeys,
    domainStore: db.domains,
    allowStore: db.allowList,
    reportStore: db.reports,
    threatRecheck:
      options.recheckEveryMs === undefined
        ? undefined
        : {
            store: db.recheck,
            everyMs: options.recheckEveryMs,
            started: (pass) => {
              recheck = pass;
            },
          },
    peopleStore: db.people,
    workspaceStore: db.workspaces,
    auditStore: db.audit,
    clock,
  });
  const request: TestShortener["request"] = (method, path, init = {}) => {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    return app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
  };
  const tokens = new AdminTokens(options.secretKey ?? testSecretKey, clock);
  return {
    app,
    db,
    cache,
    orphans,
    apiKeys,
    recheck,
    request,
    async createLink(longUrl = "https://example.com/page", alias) {
      const response = await request("POST", "/shorten/", { json: alias === undefined ? { long_url: longUrl } : { long_url: longUrl, short_url: alias } });
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
      return readJson(response);
    },
    adminToken: (username = "admin") => tokens.issue(username).token,
    async [Symbol.asyncDispose]() {
      await visits.drain();
      await orphans.drain();
      await apiKeys.drain();
      if (!options.database) await db.close();
      await testDb?.drop();
    },
  };
}

/** Redirects to `code` through the app, counting the 302s clients saw, for comparing with access_count. */
export function redirectsTo(api: TestShortener, code: string) {
  let seen = 0;
  return {
    async follow(): Promise<Response> {
      const response = await api.request("GET", `/${code}/`);
      if (response.status === 302) seen++;
      return response;
    },
    get seen(): number {
      return seen;
    },
  };
}
