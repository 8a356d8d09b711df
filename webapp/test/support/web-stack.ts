import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Hosted, hostedForTheRun, startService, startServicesTogether, type ServiceProcess } from "@linkgeo/testing";

/** The admin every web stack has, for the admin pages. */
export const stackAdmin = { username: "admin", password: "correct horse battery" };

export interface WebStack extends AsyncDisposable {
  /** The gateway's origin: the one URL the pages are opened at. */
  url: string;
  /** The shortener (the first replica), as it runs now: another process after `startShortener`. */
  readonly shortener: ServiceProcess;
  geocoder: ServiceProcess;
  gateway: ServiceProcess;
  /**
   * Ends the shortener (the first replica) as a deploy or a crash does
   * (SIGTERM), and resolves once it has exited: the gateway stays up and
   * answers its 502s, as in a real outage.
   */
  stopShortener(): Promise<void>;
  /** Starts the stopped shortener again, on its port and database: the gateway finds it where it was. */
  startShortener(): Promise<void>;
}

/**
 * The three real services as processes on free ports, as a person would run
 * them: the shortener on a SQLite file with one admin, the geocoder with its
 * offline LOCAL provider, the gateway in front. Rate limits are off, so a
 * suite's many clicks from one address are not throttled.
 */
export interface WebStackOptions {
  /** More of the geocoder's variables (its fake provider's URL, say). */
  geocoderEnv?: Record<string, string>;
  /**
   * Shortener replicas on the same database, one per key, each started with
   * that ELYSIA_SECRET_KEY (as replicas started without the variable each
   * make a random one); the gateway takes turns among them. Absent: one
   * shortener with the kit's key. `shortener` is the first replica.
   */
  shortenerReplicaKeys?: readonly string[];
  /** More of the shortener's variables (NODE_ENV=production, say), for every replica. */
  shortenerEnv?: Record<string, string>;
  /** More of the gateway's variables (a shorter UPSTREAM_TIMEOUT_MS, say). */
  gatewayEnv?: Record<string, string>;
}

/**
 * For a file that never asks the geocoder: its LOCAL provider left out, which
 * spares the stack's start about half a second of loading LOCAL's data.
 */
export const withoutLocalGeocoder: WebStackOptions = { geocoderEnv: { GEOCODER_LOCAL: "false" } };

/**
 * A SQLite file with `stackAdmin` in it, made once per run by the run's host
 * (run-host.ts) for every process: `createsuperuser` (a process, the
 * migrations, an argon2id hash) is most of a second, and every stack starts
 * from a copy of this file instead.
 */
export async function hostedAdminDatabase(): Promise<Hosted<{ path: string }>> {
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-web-admin-"));
  const path = join(dir, "shortener.db");
  await createAdmin(sqliteUrl(path));
  return { description: { path }, usable: () => existsSync(path), [Symbol.asyncDispose]: async () => rmSync(dir, { recursive: true, force: true }) };
}

const adminDatabase = hostedForTheRun<{ path: string }>({ module: import.meta.path, exportName: "hostedAdminDatabase" });

/** DATABASE_URL of a SQLite file: `sqlite:///` then the path, so an absolute path makes four slashes (three would be relative). */
const sqliteUrl = (absolutePath: string) => `sqlite:///${absolutePath}`;

export async function startWebStack(options: WebStackOptions = {}): Promise<WebStack> {
  await using cleanup = new AsyncDisposableStack();
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-web-"));
  cleanup.defer(() => rmSync(dir, { recursive: true, force: true }));
  const databasePath = join(dir, "shortener.db");
  copyFileSync((await adminDatabase()).path, databasePath);
  // The gateway needs both origins; the two services do not need each other.
  const replicaEnvs = options.shortenerReplicaKeys?.map((key) => ({ ELYSIA_SECRET_KEY: key })) ?? [{}];
  const replicas = replicaEnvs.map((env, i) => ({
    service: "shortener" as const,
    env: { DATABASE_URL: sqliteUrl(databasePath), ...options.shortenerEnv, ...env },
    options: { name: replicaEnvs.length > 1 ? `shortener-${i + 1}` : "shortener" },
  }));
  const [geocoder, ...shorteners] = await startServicesTogether(cleanup, [
    { service: "geocoder", env: { GEOCODER_CACHE_PATH: join(dir, "geocoder-cache.db"), ...options.geocoderEnv } },
    ...replicas,
  ]);
  let shortener = shorteners[0]!;
  const gateway = cleanup.use(
    await startService("gateway", {
      SHORTENER_URL: shorteners.map((replica) => replica.url).join(","),
      GEOCODER_URL: geocoder.url,
      RATE_LIMIT_CREATE: "off",
      RATE_LIMIT_API: "off",
      RATE_LIMIT_LOGIN: "off",
      RATE_LIMIT_LOGIN_USER: "off",
      RATE_LIMIT_MISSES: "off",
      ...options.gatewayEnv,
    }),
  );
  const owned = cleanup.move();
  return {
    url: gateway.url,
    get shortener() {
      return shortener;
    },
    geocoder,
    gateway,
    async stopShortener() {
      shortener.kill("SIGTERM");
      await shortener.exited;
    },
    async startShortener() {
      shortener = owned.use(await startService("shortener", replicas[0]!.env, { ...replicas[0]!.options, port: shortener.port }));
    },
    [Symbol.asyncDispose]: () => owned.disposeAsync(),
  };
}

/** What test files get of the run's web stack: the gateway's origin, the one URL its pages are opened at. */
export interface SharedWebStack {
  url: string;
}

/**
 * The run's one web stack, as its host keeps it (run-host.ts) for every
 * browser file that runs the default settings: the three services with
 * LOCAL, as a first-time operator starts them. Its database holds what the
 * files before made. Usable while none of its services has ended.
 */
export async function hostedWebStack(): Promise<Hosted<SharedWebStack>> {
  const stack = await startWebStack();
  let running = true;
  for (const service of [stack.shortener, stack.geocoder, stack.gateway])
    void service.exited.then(() => {
      running = false;
    });
  return { description: { url: stack.url }, usable: () => running, [Symbol.asyncDispose]: () => stack[Symbol.asyncDispose]() };
}

/** `bun run createsuperuser` as an operator runs it, password on stdin: `stackAdmin` in the database at `databaseUrl`. */
export async function createAdmin(databaseUrl: string): Promise<void> {
  const child = Bun.spawn([process.execPath, "run", "createsuperuser", "--username", stackAdmin.username, "--password-stdin", "--no-input"], {
    cwd: join(import.meta.dir, "../../../shortener"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", DATABASE_URL: databaseUrl },
    stdin: new Blob([stackAdmin.password]),
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await child.exited) !== 0) throw new Error(`createsuperuser failed: ${await new Response(child.stderr).text()}`);
}
