import { Database as SqliteDatabase } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase } from "../../shortener/src/storage/open-database.ts";
import { rowBacklog } from "../support/row-backlog.ts";

/** A visit log row as a batch appends it (the summing step's input). */
const loggedRow = { code: "abc", at: new Date(), humans: 1, bots: 0, facts: "{}" };

/** Whether `promise` settles within `ms`: the wait must still be pending while a row is left. */
const settlesWithin = (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => true), Bun.sleep(ms).then(() => false)]);

describe("what a benchmark row leaves behind (bench/support/row-backlog.ts)", () => {
  const directory = mkdtempSync(join(tmpdir(), "linkgeo-backlog-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** A shortener's SQLite database named `name`, its backlog's watch, and a second connection that writes as the shortener would. */
  async function sqliteBacklog(name: string) {
    const path = join(directory, name);
    await (await openDatabase({ engine: "sqlite", path })).close();
    const backlog = rowBacklog({ engine: "sqlite", url: `sqlite://${path}` }, { deadlineMs: 60_000 });
    const writer = new SqliteDatabase(path);
    return {
      path,
      backlog,
      writer,
      async [Symbol.asyncDispose]() {
        writer.close();
        await backlog.end();
      },
    };
  }

  test("SQLite: a logged visit is waited for until it is summed, then the WAL is copied back and emptied", async () => {
    await using sqlite = await sqliteBacklog("shortener.db");
    const { path, backlog, writer } = sqlite;
    writer
      .query("INSERT INTO link_visit_log (code, at, humans, bots, facts) VALUES (?, ?, ?, ?, ?)")
      .run(loggedRow.code, loggedRow.at.getTime(), loggedRow.humans, loggedRow.bots, loggedRow.facts);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    const waiting = backlog.cleared();
    expect(await settlesWithin(waiting, 300)).toBe(false);
    writer.query("DELETE FROM link_visit_log").run();
    expect((await waiting).ms).toBeGreaterThanOrEqual(300);
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(writer.query("SELECT count(*) AS n FROM link_visit_log").get()).toEqual({ n: 0 });
  });

  test("SQLite: a checkpoint kept from finishing by a writer is tried again until it finishes", async () => {
    await using sqlite = await sqliteBacklog("busy.db");
    const { path, backlog, writer } = sqlite;
    writer.run("BEGIN IMMEDIATE");
    writer.query("INSERT INTO write_probe (at, filler) VALUES (1, zeroblob(10))").run();
    const waiting = backlog.cleared();
    // Each try waits out the checkpoint's 1 s busy timeout while the writer holds its lock.
    expect(await settlesWithin(waiting, 1_500)).toBe(false);
    writer.run("COMMIT");
    expect((await waiting).ms).toBeGreaterThanOrEqual(1_000);
    expect(statSync(`${path}-wal`).size).toBe(0);
  });

  test("Postgres: the same wait, through its own connection; its checkpoints are left to it", async () => {
    await using database = await createTestDatabase("backlog");
    await (await openDatabase({ engine: "postgres", url: database.url })).close();
    const backlog = rowBacklog({ engine: "postgres", url: database.url }, { deadlineMs: 60_000 });
    const writer = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      expect(await settlesWithin(backlog.cleared(), 10_000)).toBe(true);
      await writer`INSERT INTO link_visit_log ${writer(loggedRow)}`;
      const waiting = backlog.cleared();
      expect(await settlesWithin(waiting, 300)).toBe(false);
      await writer`DELETE FROM link_visit_log`;
      const cleared = await waiting;
      expect(cleared.ms).toBeGreaterThanOrEqual(300);
      expect(cleared.databaseCpuMicros).toBe(0);
    } finally {
      await writer.end();
      await backlog.end();
    }
  });
});
