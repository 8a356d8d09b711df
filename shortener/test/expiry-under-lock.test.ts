import { expect, test } from "bun:test";
import { readJson, waitFor } from "@linkgeo/testing";
import { holdTransaction, shortenerBesidePostgres } from "./support/held-transaction.ts";

/**
 * A link's expiry is judged when its row is locked, not when the batch of
 * visits left: a redirect that waited for another writer's lock (a PUT, a
 * delete, another replica's batch) past the expiry does not lead on.
 */
test("a redirect that waited for a busy row past the link's expiry is refused, not sent on", async () => {
  await using stack = await shortenerBesidePostgres("expiry_lock");
  const { api, other } = stack;
  const expiresAt = new Date(Date.now() + 400);
  const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/t", expires_at: expiresAt.toISOString() } }));
  const holding = holdTransaction(other, (tx) => tx`SELECT 1 FROM links WHERE code = ${link.short_url} FOR UPDATE`);
  await holding.held;
  const redirect = api.request("GET", `/${link.short_url}/`);
  await stack.waitForLockWait("the redirect's write to wait for the row");
  // The other writer holds on until the link has expired.
  await waitFor("the expiry to pass", () => Date.now() > expiresAt.getTime() + 50);
  await holding.commit();
  const response = await redirect;
  expect([response.status, response.headers.get("location")]).toEqual([410, null]);
  expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/stats/`))).access_count).toBe(0);
});
