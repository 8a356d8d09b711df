import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestDatabase, readJson, startService, startServicesTogether, waitFor, type ServiceProcess } from "@linkgeo/testing";
import { createAdmin, stackAdmin } from "../../../webapp/test/support/web-stack.ts";

/**
 * API keys across shortener replicas as processes: three on one Postgres
 * database behind one gateway. Each replica trusts what it read of a key for
 * at most a second (shortener/src/auth/api-keys.ts), so a key revoked
 * through one must be refused by every one within that second; an expired
 * key is refused by all of them from its `expires_at` on, with no wait at all.
 */
const stack = new AsyncDisposableStack();
let replicas: ServiceProcess[];
let gateway: ServiceProcess;
let adminToken: string;

/** The trust window, and what the measurement adds to it (see the revocation test). */
const trustMs = 750;
const marginMs = 200;

beforeAll(async () => {
  const database = await createTestDatabase("key_revocation");
  stack.defer(() => database.drop());
  // The admin first: createsuperuser migrates the fresh database, so the replicas start on a ready schema.
  await createAdmin(database.url);
  replicas = await startServicesTogether(
    stack,
    [1, 2, 3].map((n) => ({ service: "shortener" as const, env: { DATABASE_URL: database.url }, options: { name: `shortener-${n}` } })),
  );
  gateway = stack.use(await startService("gateway", { SHORTENER_URL: replicas.map((replica) => replica.url).join(","), GEOCODER_URL: replicas[0]!.url }));
  const login = await fetch(`${gateway.url}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(stackAdmin),
  });
  expect(login.status).toBe(200);
  adminToken = (await readJson(login)).token;
}, 60_000);

afterAll(() => stack.disposeAsync());

async function createKey(name: string, expiresAt?: Date): Promise<{ id: string; key: string }> {
  const response = await fetch(`${gateway.url}/admin/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ name, scopes: ["links:read"], ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}) }),
  });
  expect(response.status).toBe(201);
  return readJson(response);
}

/** The listing, a route that needs `links:read`, asked of `origin` (a replica, or the gateway) with `key`. */
async function listingStatus(origin: string, key: string): Promise<number> {
  const response = await fetch(`${origin}/shorten/`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

const everyReplica = (key: string) => Promise.all(replicas.map((replica) => listingStatus(replica.url, key)));

describe("an API key across three shortener replicas", () => {
  test("works on each of them, directly and through the gateway's round robin", async () => {
    const { key } = await createKey("round robin");
    expect(await everyReplica(key)).toEqual([200, 200, 200]);
    const throughGateway = [];
    for (let i = 0; i < 6; i++) throughGateway.push(await listingStatus(gateway.url, key));
    expect(throughGateway).toEqual(Array(6).fill(200));
  });

  test("revoked through one, it is refused by every replica within a second of the DELETE's answer", async () => {
    const { id, key } = await createKey("to revoke");
    // Every replica has just read the key, so each trusts it for up to a whole second from here: the worst case.
    expect(await everyReplica(key)).toEqual([200, 200, 200]);

    const revoked = await fetch(`${gateway.url}/admin/api-keys/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${adminToken}` } });
    const answeredAt = performance.now();
    expect(revoked.status).toBe(204);

    // Each replica asked without a pause until it refuses; a poll does not extend what a replica trusts.
    const refusedAfterMs = await Promise.all(
      replicas.map(async (replica) => {
        let status = 200;
        await waitFor(`${replica.name} to refuse the revoked key`, async () => (status = await listingStatus(replica.url, key)) === 401, 5_000);
        return { replica: replica.name, status, ms: performance.now() - answeredAt };
      }),
    );
    // A replica that read the key just before the DELETE committed trusts it until trustMs after that read,
    // which is before the DELETE's answer; it refuses on its first poll after. The margin is what that poll
    // adds: the 20 ms between polls, and one request (a database read) to a replica on a busy test machine.
    expect(refusedAfterMs.map(({ replica, status }) => ({ replica, status }))).toEqual(replicas.map((replica) => ({ replica: replica.name, status: 401 })));
    const last = Math.max(...refusedAfterMs.map(({ ms }) => ms));
    expect(last).toBeLessThanOrEqual(trustMs + marginMs);
    expect(await listingStatus(gateway.url, key)).toBe(401);
  }, 15_000);

  test("expiring in two seconds, it is refused by all three right after its time", async () => {
    const expiresAt = new Date(Math.ceil((Date.now() + 2_000) / 1_000) * 1_000);
    const { key } = await createKey("short lived", expiresAt);
    expect(await everyReplica(key)).toEqual([200, 200, 200]);

    // Kept warm until the last moment: each replica has read the key well within its trust window.
    await waitFor("the key's expiry", async () => {
      if (Date.now() >= expiresAt.getTime()) return true;
      if (Date.now() < expiresAt.getTime() - 300) await everyReplica(key);
      return false;
    });
    // The replicas check expires_at against their clock on every request (this machine's, as the test's): no trust window applies.
    expect(await everyReplica(key)).toEqual([401, 401, 401]);
    expect(await listingStatus(gateway.url, key)).toBe(401);
  }, 15_000);
});
