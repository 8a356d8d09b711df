import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, readJson, waitFor } from "@linkgeo/shared/testing";
import { reply, startFakeProvider } from "./support/fake-provider.ts";

const geocoderDir = join(import.meta.dir, "..");

describe("starting the geocoder", () => {
  test("a bad configuration stops it with one line per bad variable", async () => {
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: geocoderDir,
      env: { PATH: process.env.PATH, PORT: "99999", HERE_URL: "ftp://x", GEOCODER_DEFAULT_ORDER: "bing" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(exitCode).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      'geocoder: PORT must be a whole number from 0 to 65535 (got "99999")',
      "geocoder: GEOCODER_DEFAULT_ORDER has unknown entries BING: use REPLICAS, NOMINATIM, GEOAPIFY, HERE, LOCAL",
    ]);
  });

  test("registers providers from the environment and answers through its caches, logging JSON in production", async () => {
    const dir = mkdtempSync(join(tmpdir(), "geocoder-start-"));
    await using replica = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const port = await freePort();
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: geocoderDir,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NOMINATIM_REVERSER_REPLICA_URL_1: replica.url().toString(),
        HERE_API_KEY: "never-shown-key",
        GEOCODER_CACHE_PATH: join(dir, "l2.db"),
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor("the geocoder to be ready", async () => (await fetch(`${base}/ready`).catch(() => null))?.ok === true);
      const geocoders = await readJson(await fetch(`${base}/geocoders`));
      expect(geocoders.geocoders.map((g: { name: string }) => g.name)).toEqual(["NOMINATIM_REPLICA_1", "HERE", "LOCAL"]);
      const first = await fetch(`${base}/reverse-geocode?latitude=48.86&longitude=2.35`);
      expect([first.status, first.headers.get("x-cache"), first.headers.get("x-geocoder-provider")]).toEqual([200, "MISS", "NOMINATIM_REPLICA_1"]);
      const second = await fetch(`${base}/reverse-geocode?latitude=48.86&longitude=2.35`);
      expect(second.headers.get("x-cache")).toBe("L1");
      expect(replica.requests).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
      const lines = (await new Response(child.stdout).text()).trim().split("\n").map((line) => JSON.parse(line));
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(["listening", "shutting down", "stopped"]));
      expect(JSON.stringify(lines)).not.toContain("never-shown-key");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
