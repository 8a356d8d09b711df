import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startPostgresWithReplica, startService, waitFor, type PostgresWithReplica } from "@linkgeo/testing";
import postgres from "postgres";
import type { NewLink } from "../../src/links/link.ts";
import { LinkVisits } from "../../src/visits/link-visits.ts";
import { openDatabase, type Database } from "../../src/storage/open-database.ts";
import { parseLsn, ReadReplicas } from "../../src/storage/postgres/read-replicas.ts";

// A real streaming replica (initdb, pg_basebackup) of a primary of its own.
// Its replay is paused to make it lag: what a read returns then says which
// server answered it (the replica lacks what the primary wrote since).

let pair: PostgresWithReplica;
const stack = new AsyncDisposableStack();

beforeAll(async () => {
  pair = stack.use(await startPostgresWithReplica());
}, 60_000);

afterAll(async () => {
  await stack.disposeAsync();
});

let seq = 0;
const newLink = (name: string): NewLink => {
  const code = `${name}${++seq}`;
  return { code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: new Date() };
};

/** Opens the shortener's stores on the pair, the replica allowed `maxLagMs` behind; resolves once the watch finds it fit. */
async function openWithReplica(maxLagMs: number): Promise<Database> {
  const db = await openDatabase({ engine: "postgres", url: pair.primaryUrl }, { readUrls: [pair.replicaUrl], readMaxLagMs: maxLagMs });
  stack.defer(() => db.close());
  await pair.caughtUp();
  await replicaFit(db);
  return db;
}

const replicaFit = (db: Database) =>
  waitFor("the replica fit for reads", () =>
    db.readReplicaChecks["read-replica-1"]!().then(
      () => true,
      () => false,
    ),
  );
const listed = async (db: Database) => (await db.links.list({ offset: 0, limit: 1_000 })).links.map((link) => link.code);

describe("reads on a Postgres streaming replica", () => {
  test("the listing, search and exports are read from a fit replica, a link by code from the primary: create-then-read never misses", async () => {
    const db = await openWithReplica(60_000);
    const before = newLink("before");
    await db.links.insert(before);
    await pair.caughtUp();
    expect(await listed(db)).toContain(before.code);

    await pair.pauseReplay();
    try {
      const written = newLink("written");
      expect(await db.links.insert(written)).not.toBeNull();
      // Within the bound (60 s) the replica answers the listing: it has not replayed the new link.
      expect(await listed(db)).not.toContain(written.code);
      expect((await db.links.list({ offset: 0, limit: 10, search: written.code })).count).toBe(0);
      expect((await db.links.exportPage(null, 1_000)).map((link) => link.code)).not.toContain(written.code);
      // What a client just wrote, it reads back at once: a record, by code or by manage token, is the primary's.
      expect((await db.links.find(written.code))?.longUrl).toBe(written.longUrl);
      expect((await db.links.findByManageTokenHash(written.manageTokenHash))?.code).toBe(written.code);
      // The replica's own sessions ran the listing.
      const replica = postgres(pair.replicaUrl, { max: 1, onnotice: () => {} });
      try {
        const queries = await replica<
          { query: string }[]
        >`SELECT query FROM pg_stat_activity WHERE application_name = 'postgres.js' AND pid <> pg_backend_pid()`;
        expect(queries.some(({ query }) => /from "links"/i.test(query))).toBe(true);
      } finally {
        await replica.end();
      }
      // Reports too: visits that led nowhere, counted on the primary, are not in the replica's report yet.
      const today = new Date().toISOString().slice(0, 10);
      const before = await db.orphans.days({ fromDay: today, toDay: today });
      await db.orphans.add([{ day: today, domainId: 0, kind: "unknown", referrer: "direct", humans: 3, bots: 0 }]);
      expect(await db.orphans.days({ fromDay: today, toDay: today })).toEqual(before);
    } finally {
      await pair.resumeReplay();
    }
  }, 30_000);

  test("a report's reads run on one replica in one transaction: replay resumed between them changes none of them", async () => {
    const db = await openWithReplica(60_000);
    const link = newLink("report");
    await db.links.insert(link);
    const visits = (count: number) => {
      const batch = new LinkVisits();
      for (let i = 0; i < count; i++) batch.add({ bot: false, referrer: "direct", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" });
      return new Map([[link.code, batch]]);
    };
    const allTime = [new Date("2000-01-01T00:00:00Z"), new Date("2100-01-01T00:00:00Z")] as const;
    const total = (buckets: Array<{ humans: number; bots: number }>) => buckets.reduce((sum, bucket) => sum + bucket.humans + bucket.bots, 0);
    await db.links.recordVisits(visits(1), new Date());
    await db.visits.sumVisitLog();
    await pair.caughtUp();

    await pair.pauseReplay();
    let replaying = false;
    try {
      await db.links.recordVisits(visits(2), new Date());
      await db.visits.sumVisitLog();
      const seen = await db.visits.snapshot(async (reads) => {
        const first = total(await reads.buckets({ code: link.code }, ...allTime));
        await pair.resumeReplay();
        replaying = true;
        await pair.caughtUp();
        return { first, second: total(await reads.buckets({ code: link.code }, ...allTime)) };
      });
      // The replica answered (the primary had 3 by then), and its transaction kept the state it began with.
      expect(seen).toEqual({ first: 1, second: 1 });
      expect(total(await db.visits.snapshot((reads) => reads.buckets({ code: link.code }, ...allTime)))).toBe(3);
    } finally {
      if (!replaying) await pair.resumeReplay();
    }
  }, 30_000);

  test("a replica further behind than the bound is skipped and the primary answers; replayed again, it answers again", async () => {
    const db = await openWithReplica(300);
    const check = db.readReplicaChecks["read-replica-1"]!;
    await pair.pauseReplay();
    try {
      const written = newLink("behind");
      await db.links.insert(written);
      // The watch sees the replica stuck behind the primary's position for longer than 300 ms.
      await waitFor("the replica called lagging", () =>
        check().then(
          () => false,
          () => true,
        ),
      );
      expect(await listed(db)).toContain(written.code);
      expect((await db.links.exportPage(null, 1_000)).map((link) => link.code)).toContain(written.code);
    } finally {
      await pair.resumeReplay();
    }
    // Replayed, it is fit again (test 1 shows what a fit replica answers).
    await replicaFit(db);
  }, 30_000);

  test("a listing that asks for a fresh answer (Cache-Control: no-cache) is the primary's even with a fit replica", async () => {
    const db = await openWithReplica(60_000);
    await pair.pauseReplay();
    try {
      const written = newLink("fresh");
      await db.links.insert(written);
      expect(await listed(db)).not.toContain(written.code);
      expect((await db.links.list({ offset: 0, limit: 1_000, fresh: true })).links.map((link) => link.code)).toContain(written.code);
    } finally {
      await pair.resumeReplay();
    }
  }, 30_000);

  test("the watch, on a clock it is given: a first look does not trust a replica behind the primary, and a replica falls behind only once the bound has passed", async () => {
    const primary = postgres(pair.primaryUrl, { max: 1, onnotice: () => {} });
    const replicaSql = postgres(pair.replicaUrl, { max: 1, onnotice: () => {} });
    let now = 0;
    const watch = new ReadReplicas({ primary, replicas: [replicaSql] }, ["stores"], { maxLagMs: 1_000, pollMs: 250, now: () => now });
    const [replica] = watch.replicas;
    try {
      await primary`CREATE TABLE IF NOT EXISTS watch_writes (n int)`;
      await pair.pauseReplay();
      try {
        await primary`INSERT INTO watch_writes VALUES (1)`;
        // Behind at the first look: for how long, the watch cannot know; not fit.
        await watch.look();
        expect(replica!.state).toBe("lagging");
        expect(watch.pick()).toBeUndefined();
      } finally {
        await pair.resumeReplay();
      }
      now = 300;
      await watch.look();
      expect({ state: replica!.state, lagMs: replica!.lagMs }).toEqual({ state: "ok", lagMs: 0 });
      expect(watch.pick()).toBe(replica);

      await pair.pauseReplay();
      try {
        await primary`INSERT INTO watch_writes VALUES (2)`;
        now = 600;
        await watch.look();
        // The primary has had this position since the look at 600: behind by 0 ms so far.
        expect({ state: replica!.state, lagMs: replica!.lagMs }).toEqual({ state: "ok", lagMs: 0 });
        now = 1_500;
        await watch.look();
        expect({ state: replica!.state, lagMs: replica!.lagMs }).toEqual({ state: "ok", lagMs: 900 });
        now = 1_700;
        await watch.look();
        expect({ state: replica!.state, lagMs: replica!.lagMs }).toEqual({ state: "lagging", lagMs: 1_100 });
      } finally {
        await pair.resumeReplay();
      }
      now = 2_000;
      await watch.look();
      expect(replica!.state).toBe("ok");
      // A verdict not renewed for two looks and a timeout is not trusted: a watch stuck on a hung server.
      now = 2_000 + 2 * 250 + 1_000 + 1;
      expect(watch.pick()).toBeUndefined();

      // A URL that names the primary is not a replica.
      const misnamed = new ReadReplicas({ primary, replicas: [primary] }, ["stores"], { maxLagMs: 1_000 });
      await misnamed.look();
      expect(misnamed.replicas[0]!.state).toBe("down");
    } finally {
      await primary.end();
      await replicaSql.end();
    }
  }, 30_000);

  test("write-ahead log positions compare as numbers, not as text", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
    expect(parseLsn("A/0") > parseLsn("9/FFFFFFFF")).toBe(true);
  });
});

describe("a shortener with a read replica, as a process", () => {
  test("/ready reports the replica: ok while fit, failing (degraded, still ready for traffic) while it lags", async () => {
    await using shortener = await startService("shortener", {
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      DATABASE_READ_MAX_LAG_MS: "300",
    });
    const ready = async () => {
      const response = await fetch(`${shortener.url}/ready`);
      return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
    };
    await waitFor("the replica ok in /ready", async () => (await ready()).body.checks["read-replica-1"] === "ok");
    expect((await ready()).body.status).toBe("ready");

    await pair.pauseReplay();
    try {
      // The primary moves on (the shortener's own writes: a link), the replica does not.
      const created = await fetch(`${shortener.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: "https://example.com/lag" }),
      });
      expect(created.status).toBe(201);
      await waitFor("the lagging replica in /ready", async () => (await ready()).body.checks["read-replica-1"] === "failing");
      expect(await ready()).toEqual({ status: 200, body: { status: "degraded", checks: { database: "ok", "read-replica-1": "failing" } } });
    } finally {
      await pair.resumeReplay();
    }
    await waitFor("the replica ok again", async () => (await ready()).body.checks["read-replica-1"] === "ok");
  }, 30_000);
});

describe("a read replica that dies", () => {
  test("a read it fails is asked of the primary at once, and the replica is skipped from then on", async () => {
    const db = await openWithReplica(60_000);
    // Paused first, so a listing that has the new link was answered by the primary.
    await pair.pauseReplay();
    const written = newLink("dying");
    await db.links.insert(written);
    expect(await listed(db)).not.toContain(written.code);
    await pair.killReplica();
    // Before the watch has looked again: the listing meets the dead replica and the primary answers it.
    expect(await listed(db)).toContain(written.code);
    await expect(db.readReplicaChecks["read-replica-1"]!()).rejects.toThrow("read-replica-1 is down");
    expect((await db.links.list({ offset: 0, limit: 10, search: written.code })).count).toBe(1);
  }, 30_000);
});
