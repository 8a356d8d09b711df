import { expect, test } from "bun:test";
import { createTestDatabase, readJson, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase } from "../src/storage/open-database.ts";
import { startTestShortener } from "./support/test-shortener.ts";

/**
 * A link's expiry is judged when its row is locked, not when the batch of
 * visits left: a redirect that waited for another writer's lock (a PUT, a
 * delete, another replica's batch) past the expiry does not lead on.
 */
test("a redirect that waited for a busy row past the link's expiry is refused, not sent on", async () => {
  await using testDb = await createTestDatabase("expiry_lock");
  const database = await openDatabase({ engine: "postgres", url: testDb.url });
  await using api = await startTestShortener({ database });
  const other = postgres(testDb.url, { max: 2, onnotice: () => {} });
  try {
    const expiresAt = new Date(Date.now() + 400);
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/t", expires_at: expiresAt.toISOString() } }));
    let release!: () => void;
    let locked!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = other.begin(async (tx) => {
      await tx`SELECT 1 FROM links WHERE code = ${link.short_url} FOR UPDATE`;
      locked();
      await released;
    });
    await lockTaken;
    const redirect = api.request("GET", `/${link.short_url}/`);
    await waitFor(
      "the redirect's write to wait for the row",
      async () => (await other`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'`).length > 0,
    );
    // The other writer holds on until the link has expired.
    await waitFor("the expiry to pass", () => Date.now() > expiresAt.getTime() + 50);
    release();
    await holding;
    const response = await redirect;
    expect([response.status, response.headers.get("location")]).toEqual([410, null]);
    expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/stats/`))).access_count).toBe(0);
  } finally {
    await other.end();
    await database.close();
  }
});
