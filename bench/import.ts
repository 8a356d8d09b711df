/**
 * Moving a shortener's links in and out: a file of BENCH_IMPORT_LINKS links
 * (1,000,000 by default; our NDJSON export, with tags, options and counts)
 * imported into a fresh database of each engine, then every link exported
 * again, in one process, through the same code as `bun run import` and
 * `GET /admin/export/links` (the parser, the Importer, the store's
 * insertImported and exportPage, openDatabase's deadlines).
 *
 *   bun run bench:import
 *   BENCH_IMPORT_LINKS=100000 bun run bench:import
 *   BENCH_IMPORT_ENGINES=sqlite bun run bench:import
 *
 * Also timed: reading and parsing the file alone, so the import's figure
 * splits into parsing and checking-and-storing. RSS is sampled at every
 * progress event (10,000 lines) and at every exported page; its growth is
 * the peak over the settled RSS before the run.
 *
 * Targets (issue 23): a million links imported in under 60 s on each
 * engine with RSS growth under 100 MB, and exported in under 20 s. A
 * report, not a test: it exits 0 either way.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@linkgeo/testing";
import { LinkTargets } from "../shortener/src/links/link-targets.ts";
import { openDatabase, type Database } from "../shortener/src/storage/open-database.ts";
import { Importer } from "../shortener/src/transfer/importer.ts";
import { linkExport } from "../shortener/src/transfer/link-export.ts";
import { parseLinkgeoNdjson } from "../shortener/src/transfer/linkgeo-ndjson-format.ts";
import { onCleanup, runBench } from "./support/lifecycle.ts";
import { megabytes, settledMemory } from "./support/memory.ts";
import { describeMachine, fmtInt, table } from "./support/report.ts";
import { intFromEnv } from "./support/settings.ts";

const targets = { importSeconds: 60, exportSeconds: 20, rssGrowthMb: 100 };
const links = intFromEnv("BENCH_IMPORT_LINKS", 1_000_000, 1_000, 10_000_000);
const engines = (process.env.BENCH_IMPORT_ENGINES ?? "sqlite,postgres").split(",").map((engine) => engine.trim()) as Array<"sqlite" | "postgres">;
const t0 = Date.parse("2025-01-01T00:00:00.000Z");

/** The file: our NDJSON export's lines, every field present, a third with tags, some with options. */
async function writeFile(path: string): Promise<number> {
  const writer = Bun.file(path).writer();
  for (let i = 0; i < links; i++) {
    const created = new Date(t0 + i * 1_000).toISOString();
    writer.write(
      `${JSON.stringify({
        short_url: `b${i.toString(36).padStart(6, "0")}`,
        long_url: `https://example.com/articles/${i}/a-title-of-some-length?utm_source=bench`,
        title: i % 2 === 0 ? `Article ${i}, "quoted"` : null,
        tags: i % 3 === 0 ? ["bench", `t${i % 7}`] : [],
        expires_at: null,
        max_visits: i % 10 === 0 ? 1_000_000 : null,
        expired_url: null,
        redirect_status: i % 5 === 0 ? 301 : null,
        password_protected: false,
        forward_query: i % 4 === 0,
        rules: i % 20 === 0 ? [{ when: { country: "DE" }, url: "https://example.de/" }] : [],
        state: "active",
        access_count: i % 1_000,
        last_accessed_at: i % 2 === 0 ? created : null,
        created_at: created,
        updated_at: created,
      })}\n`,
    );
  }
  await writer.end();
  return Bun.file(path).size;
}

async function* fileText(path: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of Bun.file(path).stream()) yield decoder.decode(chunk, { stream: true });
}

async function openFresh(engine: "sqlite" | "postgres"): Promise<Database> {
  if (engine === "sqlite") {
    const path = join(tmpdir(), `bench-import-${process.pid}.db`);
    onCleanup("the SQLite database", () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    });
    return openDatabase({ engine, path }, { timeoutMs: 60_000 });
  }
  const created = await createTestDatabase("bench_import");
  onCleanup("the Postgres database", () => created.drop());
  return openDatabase({ engine, url: created.url }, { timeoutMs: 60_000 });
}

interface Figures {
  engine: string;
  importSeconds: number;
  imported: number;
  importRssMb: number;
  exportSeconds: number;
  exportedBytes: number;
  exportRssMb: number;
  /** SHA-256 of the export: the same file imported into each engine must export the same bytes (the round trip). */
  exportDigest: string;
}

async function measure(engine: "sqlite" | "postgres", file: string): Promise<Figures> {
  const db = await openFresh(engine);
  try {
    const importer = new Importer({
      store: db.links,
      targets: new LinkTargets({ blockPrivate: false, blockedDomains: [], ownAddresses: [] }),
      clock: () => new Date(),
    });
    const before = settledMemory().rss;
    let peak = before;
    let imported = 0;
    const importStarted = performance.now();
    for await (const event of importer.run(parseLinkgeoNdjson(fileText(file)), { dryRun: false, requestHosts: [] })) {
      peak = Math.max(peak, process.memoryUsage().rss);
      if ("summary" in event) imported = event.summary.imported;
    }
    const importSeconds = (performance.now() - importStarted) / 1000;
    const importRssMb = megabytes(peak - before);

    const exportBefore = settledMemory().rss;
    let exportPeak = exportBefore;
    let bytes = 0;
    const digest = new Bun.CryptoHasher("sha256");
    const exportStarted = performance.now();
    for await (const chunk of linkExport(db.links, { format: "ndjson", now: new Date(t0), placeOf: (key) => ({ code: key, domain: "localhost" }) })) {
      bytes += chunk.byteLength;
      digest.update(chunk);
      exportPeak = Math.max(exportPeak, process.memoryUsage().rss);
    }
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    return {
      engine,
      importSeconds,
      imported,
      importRssMb,
      exportSeconds,
      exportedBytes: bytes,
      exportRssMb: megabytes(exportPeak - exportBefore),
      exportDigest: digest.digest("hex"),
    };
  } finally {
    await db.close();
  }
}

await runBench(async () => {
  const file = join(tmpdir(), `bench-import-${process.pid}.ndjson`);
  onCleanup("the file", () => rmSync(file, { force: true }));
  console.log(`${describeMachine()}\nwriting ${fmtInt(links)} links …`);
  const size = await writeFile(file);

  const parseStarted = performance.now();
  let rows = 0;
  for await (const _ of parseLinkgeoNdjson(fileText(file))) rows++;
  const parseSeconds = (performance.now() - parseStarted) / 1000;
  console.log(`file: ${(size / 1024 / 1024).toFixed(0)} MiB, ${fmtInt(rows)} lines; reading and parsing it alone: ${parseSeconds.toFixed(1)} s`);

  const table_: string[][] = [["engine", "import", "links/s", "RSS growth", "export", "links/s", "RSS growth"]];
  const digests = new Set<string>();
  for (const engine of engines) {
    console.log(`${engine} …`);
    const figures = await measure(engine, file);
    digests.add(figures.exportDigest);
    table_.push([
      engine,
      `${figures.importSeconds.toFixed(1)} s${figures.importSeconds < targets.importSeconds ? "" : " (over)"}`,
      fmtInt(figures.imported / figures.importSeconds),
      `${figures.importRssMb.toFixed(0)} MB${figures.importRssMb < targets.rssGrowthMb ? "" : " (over)"}`,
      `${figures.exportSeconds.toFixed(1)} s${figures.exportSeconds < targets.exportSeconds ? "" : " (over)"}`,
      fmtInt(links / figures.exportSeconds),
      `${figures.exportRssMb.toFixed(0)} MB`,
    ]);
    if (figures.imported !== links) console.log(`  ${engine}: imported ${fmtInt(figures.imported)} of ${fmtInt(links)}`);
  }
  console.log(
    `\n${fmtInt(links)} links; targets: import < ${targets.importSeconds} s and RSS growth < ${targets.rssGrowthMb} MB, export < ${targets.exportSeconds} s\n`,
  );
  console.log(table(table_));
  if (engines.length > 1) console.log(`round trip: the engines' exports are ${digests.size === 1 ? "identical" : "DIFFERENT"} (SHA-256 of each)`);
  return digests.size > 1 ? 1 : 0;
});
