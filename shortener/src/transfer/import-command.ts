import { databaseWhere } from "../storage/database-target.ts";
import { ConfigError, createLogger, describeError, HttpError, uploadText } from "@linkgeo/shared";
import { MultiBar, Presets } from "cli-progress";
import { readImportCommandConfig } from "../config.ts";
import { LinkTargets } from "../links/link-targets.ts";
import { ThreatFeeds } from "../threats/threat-feeds.ts";
import { openDatabase, type Database } from "../storage/open-database.ts";
import { guessFormat, parserFor } from "./format-registry.ts";
import { ImportArgsError, importUsage, parseImportArgs } from "./import-args.ts";
import { Importer, type ImportCounts, type ImportOutcome, type ImportSummary } from "./importer.ts";
import { ImportDomains } from "./import-domains.ts";
import { DomainSnapshot } from "../domains/domain-directory.ts";

/** A problem the operator can fix: one line, exit 1. */
class ImportFailed extends Error {}

// A batch of a thousand links may take longer than a request's 3 s on a busy machine; nobody is waiting on a socket here.
const databaseTimeoutMs = 60_000;

async function main(): Promise<number> {
  let database: Database | undefined;
  try {
    const args = parseImportArgs(process.argv.slice(2));
    if (args.help || args.file === undefined) {
      process.stdout.write(`${importUsage}\n`);
      return 0;
    }
    const config = readImportCommandConfig(process.env);
    const file = Bun.file(args.file);
    if (!(await file.exists())) throw new ImportFailed(`no such file: ${args.file}`);
    const size = file.size;
    database = await openDatabase(config.database, { timeoutMs: databaseTimeoutMs }).catch((error: unknown) => {
      throw new ImportFailed(`cannot open the database, ${databaseWhere(config.database)}: ${describeError(error)}`);
    });

    const progress = new ImportProgress(size);
    let read = 0;
    const counted = file.stream().pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          progress.read(read);
          controller.enqueue(chunk);
        },
      }),
    );
    const upload = await uploadText(counted, Number.POSITIVE_INFINITY);
    const format = args.format ?? (await guessFormat(upload.head));
    if (format === undefined) throw new ImportFailed("cannot tell the file's format from its first line: name it with --format");
    const parser = parserFor(format);
    // The service's threat feeds, read once: a row whose destination they list is a problem row, as on POST /admin/import.
    const threats = new ThreatFeeds({
      paths: config.threatFeeds,
      // A feed that cannot be read is said on stderr; what is loaded is not news here.
      log: createLogger({ service: "import", level: "warn", format: "pretty", write: (line) => process.stderr.write(`${line}\n`) }),
    });
    await threats.refresh();
    const importer = new Importer({
      store: database.links,
      targets: new LinkTargets({ blockPrivate: config.blockPrivateTargets, blockedDomains: config.blockedDomains, ownAddresses: [] }, threats),
      clock: () => new Date(),
    });

    const started = performance.now();
    let summary: ImportSummary | undefined;
    progress.start();
    try {
      // Without PUBLIC_BASE_URL the command cannot tell the default domain's host from another: it would add it as a domain.
      if (args.domains === "create" && !config.publicBaseUrl) {
        throw new ImportFailed("--domains create needs PUBLIC_BASE_URL, whose host is the default domain's (the one a file's rows name and no domain to add)");
      }
      const snapshot = new DomainSnapshot(await database.domains.list());
      const hosts = [...(config.publicBaseUrl ? [config.publicBaseUrl.host] : []), ...snapshot.hosts];
      const domains = new ImportDomains({
        domains: snapshot,
        defaultHost: config.publicBaseUrl?.hostname,
        choice: args.domains,
        dryRun: args.dryRun,
        create: (host) => addDomain(database!, host),
      });
      for await (const event of importer.run(parser(upload.chunks), { dryRun: args.dryRun, requestHosts: hosts, progressEvery: 2_000, domains })) {
        if ("outcome" in event) progress.log(describeOutcome(event.outcome));
        else if ("progress" in event) {
          progress.counts(event.progress);
          // The import runs on promises alone; the bar redraws on a timer, which needs a turn of the event loop.
          await Bun.sleep(0);
        } else summary = event.summary;
      }
    } finally {
      progress.stop();
    }
    process.stdout.write(summaryTable({ file: args.file, format, dryRun: args.dryRun, counts: summary!, seconds: (performance.now() - started) / 1000 }));
    return 0;
  } catch (error) {
    process.stderr.write(`import: ${describeFailure(error)}\n`);
    return 1;
  } finally {
    await database?.close().catch(() => {});
  }
}

/**
 * The progress bar (cli-progress) on stderr, by bytes of the file read,
 * with lines, their rate and the ETA; drawn only on a terminal. Rows not
 * imported are printed above it as they come.
 */
class ImportProgress {
  private readonly bars = process.stderr.isTTY
    ? new MultiBar(
        {
          format: "{bar} {percentage}% | {lines} lines | {rate} lines/s | {imported} imported | ETA {eta_formatted}",
          hideCursor: true,
          etaBuffer: 50,
          stream: process.stderr,
        },
        Presets.shades_classic,
      )
    : undefined;
  private bar: ReturnType<MultiBar["create"]> | undefined;
  private readonly startedAt = performance.now();
  private bytes = 0;

  constructor(private readonly total: number) {}

  start(): void {
    this.bar = this.bars?.create(Math.max(1, this.total), this.bytes, { lines: 0, rate: 0, imported: 0 });
  }

  read(bytes: number): void {
    this.bytes = bytes;
    this.bar?.update(bytes);
  }

  counts(counts: ImportCounts): void {
    const seconds = (performance.now() - this.startedAt) / 1000;
    this.bar?.update(this.bytes, { lines: counts.lines, rate: Math.round(counts.lines / Math.max(seconds, 0.001)), imported: counts.imported });
  }

  log(line: string): void {
    if (this.bars) this.bars.log(`${line}\n`);
    else process.stdout.write(`${line}\n`);
  }

  stop(): void {
    this.bar?.update(this.total);
    this.bars?.stop();
  }
}

/**
 * A row not imported, as a line of the terminal: what the file wrote (a
 * code, a cell in a reason) with its control characters escaped, never run;
 * so are the marks that reorder text (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069), which could make one line read as another.
 */
function describeOutcome(outcome: ImportOutcome): string {
  const code = outcome.short_url === undefined ? "" : ` (${outcome.short_url})`;
  return `line ${outcome.line}: ${outcome.status}${code}: ${outcome.reason}`.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Adds a domain the file names (--domains create), or finds the one another added meanwhile; its id. */
async function addDomain(database: Database, host: string): Promise<number> {
  const created = await database.domains.insert({ host, rootUrl: null, notFoundUrl: null, expiredUrl: null, redirectStatus: null, createdAt: new Date() });
  const id = created?.id ?? (await database.domains.list()).find((domain) => domain.host === host)?.id;
  if (id === undefined) throw new ImportFailed(`cannot add the domain "${host}"`);
  return id;
}

/** The closing table: what was read, what became of it, how fast. */
function summaryTable(run: { file: string; format: string; dryRun: boolean; counts: ImportSummary; seconds: number }): string {
  const rows: Array<[string, string]> = [
    ["file", run.file],
    ["format", run.format],
    ["dry run", run.dryRun ? "yes (nothing stored)" : "no"],
    ["lines", String(run.counts.lines)],
    [run.dryRun ? "would import" : "imported", String(run.counts.imported)],
    ["skipped", String(run.counts.skipped)],
    ["problems", String(run.counts.problems)],
    ...(run.counts.unknown_domains.length === 0 ? [] : [["domains not here", run.counts.unknown_domains.join(", ")] as [string, string]]),
    ["time", `${run.seconds.toFixed(1)} s (${Math.round(run.counts.lines / Math.max(run.seconds, 0.001))} lines/s)`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`;
}

function describeFailure(error: unknown): string {
  if (error instanceof ImportFailed || error instanceof ImportArgsError || error instanceof HttpError) return error.message;
  if (error instanceof ConfigError) return error.problems.join("; ");
  return `unexpected error: ${describeError(error).replace(/\s*\n\s*/g, " ")}`;
}

// `bun run import <file>`: the only file of the command that reads argv, env and the file. Last, once the classes above exist.
process.exit(await main());
