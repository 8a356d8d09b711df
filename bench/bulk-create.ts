/**
 * Bulk create: how long `POST /shorten/bulk/` takes for 1,000 links in one
 * request, on each engine (the real shortener, `bun run src/main.ts`: on
 * Postgres with Redis as its cache, and on a SQLite file), target < 1 s.
 * Each round sends 1,000 new links (a tenth with an alias of their own) and
 * checks that every one came back 201; a last request per engine carries
 * the most passwords a request may (maxBulkPasswords), whose argon2id
 * hashes are most of its time.
 *
 *   bun run bench:bulk
 *   BENCH_ROUNDS=10 bun run bench:bulk
 *
 * Knobs: BENCH_ROUNDS (5 here: requests per engine, median and worst
 * reported), BENCH_LOG_LEVEL, BENCH_ACCESS_LOG (bench/support/settings.ts);
 * TEST_POSTGRES_URL and TEST_REDIS_URL as for the tests.
 *
 * A report, not a test: it exits 0 whether or not a request stays under the
 * target, and 1 only on errors (an item that was not created).
 */
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maxBulkItems } from "@linkgeo/shared";
import { AdminTokens } from "../shortener/src/auth/admin-tokens.ts";
import { maxBulkPasswords } from "../shortener/src/links/link-service.ts";
import { BenchError, onCleanup, runBench } from "./support/lifecycle.ts";
import { benchDatabase, benchRedisPrefix } from "./support/bench-storage.ts";
import { describeMachine, median } from "./support/report.ts";
import { intFromEnv, readSettings } from "./support/settings.ts";
import { startShortener } from "./support/shortener.ts";

const targetMs = 1_000;

async function main(): Promise<number> {
  const settings = readSettings();
  const rounds = intFromEnv("BENCH_ROUNDS", 5, 1, 100);
  const secretKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const admin = { authorization: `Bearer ${new AdminTokens(secretKey, () => new Date()).issue("bench").token}` };

  const database = await benchDatabase("bench");
  const redisPrefix = benchRedisPrefix("bench");
  const sqliteFile = join(tmpdir(), `bench-bulk-${process.pid}.db`);
  onCleanup(`delete ${sqliteFile}`, () => Promise.all(["", "-wal", "-shm"].map((suffix) => rm(sqliteFile + suffix, { force: true }))).then(() => {}));

  const engines = [
    { name: "postgres", shortener: await startShortener(settings, database, redisPrefix, { ELYSIA_SECRET_KEY: secretKey }) },
    { name: "sqlite", shortener: await startShortener(settings, { url: `sqlite:///${sqliteFile}` }, redisPrefix, { ELYSIA_SECRET_KEY: secretKey }) },
  ];
  console.log(`POST /shorten/bulk/ with ${maxBulkItems} links, ${rounds} request(s) per engine after one warm-up, one at a time; target < ${targetMs} ms`);
  console.log(`  shortener LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, Redis as the link cache`);
  console.log(`  machine: ${describeMachine()}\n`);

  let batch = 0;
  const bulk = async (base: string, passwords = 0): Promise<number> => {
    const run = `${process.pid}-${++batch}`;
    const links = Array.from({ length: maxBulkItems }, (_, i) => ({
      long_url: `https://example.com/bench/${run}/${i}`,
      ...(i % 10 === 0 ? { short_url: `bulk-${run}-${i}` } : {}),
      ...(i < passwords ? { password: "a bench password" } : {}),
    }));
    const started = performance.now();
    const response = await fetch(`${base}/shorten/bulk/`, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ links }),
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new BenchError(`POST ${base}/shorten/bulk/ answered ${response.status}: ${text.slice(0, 300)}`);
    const { results } = JSON.parse(text) as { results: Array<{ status: number }> };
    const refused = results.filter((result) => result.status !== 201).length;
    if (results.length !== maxBulkItems || refused > 0) throw new BenchError(`${refused} of ${results.length} items were not created`);
    return elapsed;
  };

  const format = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
  for (const { name, shortener } of engines) {
    await bulk(shortener.base);
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) times.push(await bulk(shortener.base));
    const withPasswords = await bulk(shortener.base, maxBulkPasswords);
    const worst = Math.max(...times);
    const verdict = worst < targetMs ? "under target" : "OVER TARGET";
    console.log(
      `  ${name.padEnd(8)}  median ${format(median(times))}  worst ${format(worst)}  (${verdict})  ` +
        `with ${maxBulkPasswords} passwords ${format(withPasswords)}   [${times.map((ms) => ms.toFixed(0)).join(", ")}]`,
    );
  }
  return 0;
}

if (import.meta.main) await runBench(main);
