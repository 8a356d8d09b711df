import { describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { holdSqliteLock, readJson } from "@linkgeo/testing";
import { openDatabase, openSqliteDatabase } from "../src/storage/open-database.ts";
import { redirectsTo, startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/**
 * SQLite refusing writes while it still answers reads. The service's own
 * connection is put in the state with pragmas (per connection, so the test
 * must hold the very handle the service uses): `max_page_count` at the
 * current size is a full database, `query_only` a read-only one.
 */
async function shortenerOnSqliteFile() {
  const folder = mkdtempSync(join(tmpdir(), "shortener-writes-"));
  const sqlite = new SqliteDatabase(join(folder, "links.db"), { create: true, strict: true });
  const api = await startTestShortener({ database: openSqliteDatabase(sqlite) });
  return {
    api,
    sqlite,
    async [Symbol.asyncDispose]() {
      await api[Symbol.asyncDispose]();
      sqlite.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function expectUnavailable(response: Response) {
  expect({ status: response.status, retryAfter: response.headers.get("retry-after") }).toEqual({ status: 503, retryAfter: "1" });
  expect((await readJson(response)).error.code).toBe("service_unavailable");
}

async function readiness(api: TestShortener) {
  const response = await api.request("GET", "/ready");
  return { status: response.status, body: await readJson(response) };
}

const notReady = { status: 503, body: { status: "unavailable", checks: { database: "failing" } } };
const ready = { status: 200, body: { status: "ready", checks: { database: "ok" } } };

describe("a SQLite database that stops taking writes", () => {
  test("full: creates answer 503, /ready says unavailable until a write succeeds again, and nothing is lost", async () => {
    await using setup = await shortenerOnSqliteFile();
    const { api, sqlite } = setup;
    const created = [await api.createLink("https://example.com/before-full")];
    const { page_count } = sqlite.query("PRAGMA page_count").get() as { page_count: number };
    sqlite.exec(`PRAGMA max_page_count = ${page_count}`);

    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await api.request("POST", "/shorten/", { json: { long_url: `https://example.com/${i}/${"x".repeat(1500)}` } });
      if (response.status === 201) created.push(await readJson(response));
      else refused = response;
    }
    await expectUnavailable(refused!);
    expect(await readiness(api)).toEqual(notReady);

    sqlite.exec("PRAGMA max_page_count = 1000000");
    expect(await readiness(api)).toEqual(ready);
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/after-full" } })).status).toBe(201);
    for (const link of created) expect((await api.db.links.find(link.short_url))?.longUrl).toBe(link.long_url);
  });

  test("read-only: redirects and every write answer 503, /ready says unavailable, and counts stay exact", async () => {
    await using setup = await shortenerOnSqliteFile();
    const { api, sqlite } = setup;
    const link = await api.createLink("https://example.com/read-only");
    const redirects = redirectsTo(api, link.short_url);
    const redirect = () => redirects.follow();
    expect((await redirect()).status).toBe(302);

    sqlite.exec("PRAGMA query_only = ON");
    const auth = { authorization: `Bearer ${link.manage_token}` };
    await expectUnavailable(await redirect());
    await expectUnavailable(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/new" } }));
    await expectUnavailable(await api.request("PUT", `/shorten/${link.short_url}/`, { json: { long_url: "https://example.com/changed" }, headers: auth }));
    await expectUnavailable(await api.request("DELETE", `/shorten/${link.short_url}/`, { headers: auth }));
    // Reads still work: the link is there, unchanged.
    expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/`))).long_url).toBe("https://example.com/read-only");
    expect(await readiness(api)).toEqual(notReady);

    sqlite.exec("PRAGMA query_only = OFF");
    expect(await readiness(api)).toEqual(ready);
    expect((await redirect()).status).toBe(302);
    expect(await api.db.links.find(link.short_url)).toMatchObject({ accessCount: redirects.seen, longUrl: "https://example.com/read-only" });
  });
});

describe("a SQLite file another process is making", () => {
  test("opening it waits for that process's lock (turning a fresh file to WAL takes it), as replicas starting together on one file do", async () => {
    const folder = mkdtempSync(join(tmpdir(), "shortener-open-"));
    try {
      const path = join(folder, "shortener.db");
      await using _holder = await holdSqliteLock(path, 300);
      const db = await openDatabase({ engine: "sqlite", path });
      expect(await db.links.find("none")).toBeNull();
      await db.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
