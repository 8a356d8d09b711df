import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startService, type ServiceProcess } from "@linkgeo/testing";

/** The admin every web stack has, for the admin pages. */
export const stackAdmin = { username: "admin", password: "correct horse battery" };

export interface WebStack extends AsyncDisposable {
  /** The gateway's origin: the one URL the pages are opened at. */
  url: string;
  shortener: ServiceProcess;
  geocoder: ServiceProcess;
  gateway: ServiceProcess;
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
}

/**
 * For a file that never asks the geocoder: its LOCAL provider left out, which
 * spares the stack's start about half a second of loading LOCAL's data.
 */
export const withoutLocalGeocoder: WebStackOptions = { geocoderEnv: { GEOCODER_LOCAL: "false" } };

export async function startWebStack(options: WebStackOptions = {}): Promise<WebStack> {
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-web-"));
  const started: ServiceProcess[] = [];
  try {
    const databaseUrl = `sqlite://${join(dir, "shortener.db")}`;
    await createAdmin(databaseUrl);
    const shortener = await startService("shortener", { DATABASE_URL: databaseUrl });
    started.push(shortener);
    const geocoder = await startService("geocoder", { GEOCODER_CACHE_PATH: join(dir, "geocoder-cache.db"), ...options.geocoderEnv });
    started.push(geocoder);
    const gateway = await startService("gateway", {
      SHORTENER_URL: shortener.url,
      GEOCODER_URL: geocoder.url,
      RATE_LIMIT_CREATE: "off",
      RATE_LIMIT_API: "off",
      RATE_LIMIT_LOGIN: "off",
      RATE_LIMIT_LOGIN_USER: "off",
    });
    started.push(gateway);
    return {
      url: gateway.url,
      shortener,
      geocoder,
      gateway,
      async [Symbol.asyncDispose]() {
        await stopAll(started);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll(started);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function stopAll(services: ServiceProcess[]): Promise<void> {
  await Promise.all(services.map((service) => service[Symbol.asyncDispose]()));
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
