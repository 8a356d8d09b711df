import { describeError, HttpError, InvalidRequest, type Logger } from "@linkgeo/shared";
import { unmanagedTokenHashes } from "../auth/manage-token.ts";
import { storableInstant } from "../http/instant.ts";
import { parseOptions, type OptionsInput, type ParsedOptions } from "../links/link-options.ts";
import type { LinkStore } from "../links/link-store.ts";
import type { LinkTargets } from "../links/link-targets.ts";
import type { ImportedLink } from "../links/link.ts";
import { aliasProblem } from "../links/short-code.ts";
import { storageUnavailable } from "../storage/storage-unavailable.ts";
import { contentKey, derivedCode, derivedCodeAttempts } from "./derived-code.ts";
import type { ImportRecord, ImportRow } from "./import-record.ts";
import type { ImportDomains } from "./import-domains.ts";
import { codeOfKey, linkKey } from "../links/link-key.ts";
import { defaultDomainId } from "../domains/domain.ts";
import { importedTags, importedTitle } from "./source-text.ts";

export interface ImporterDeps {
  store: Pick<LinkStore, "insertImported" | "findMany">;
  targets: LinkTargets;
  clock: () => Date;
  /** Told why a batch the database refused was stored row by row (its checks missed something). */
  log?: Logger;
  /** Told of the codes each batch inserted: the app drops what its link cache holds for them (a tombstone of a deleted link). */
  onInserted?: (codes: readonly string[]) => Promise<void>;
}

export interface ImportOptions {
  /** Check every row, and which codes are taken, but store nothing. */
  dryRun: boolean;
  /** Hosts the service is reached by: no long URL may name them (LinkTargets). */
  requestHosts: Iterable<string>;
  batchSize?: number;
  /** A progress event every this many lines. */
  progressEvery?: number;
  /** Which domain each row goes on; absent, every row goes on the default domain. */
  domains?: ImportDomains;
  /** The workspace every row goes into (POST /admin/import?workspace=); absent, none. */
  workspaceId?: number;
  /** Why a row may not go on this domain (domains/domain-use.ts), or undefined when it may; absent, every domain may be used. */
  domainRefusal?: (domainId: number) => string | undefined;
  /** Why a row may not open its visits to anyone (`public_stats: true`, links/public-stats.ts), or undefined when it may. */
  publicStatsRefusal?: string;
  /**
   * What a batch costs before it is stored, a token a link (a workspace's
   * budget: people/workspace-budgets.ts); what it throws (a 429) stops the
   * import, with the batches before it stored. Not spent in a dry run.
   */
  spend?: (links: number) => Promise<void>;
}

/** What became of a row that was not imported: `problem`, it is wrong; `skipped`, it is fine but its code is not to be had. */
export interface ImportOutcome {
  line: number;
  status: "skipped" | "problem";
  short_url?: string;
  reason: string;
}

export interface ImportCounts {
  /** The last line read. */
  lines: number;
  imported: number;
  skipped: number;
  problems: number;
}

/** The summary: the counts, and the hosts rows named that were no domain here (see ImportDomains). */
export type ImportSummary = ImportCounts & { dry_run: boolean; unknown_domains: string[] };

export type ImportEvent = { outcome: ImportOutcome } | { progress: ImportCounts } | { summary: ImportSummary };

export const importBatchSize = 1_000;
export const progressEveryLines = 10_000;

/** A checked row waiting for its batch; `derived`: its code was made from its content (the row had none). */
interface Pending {
  line: number;
  /** `link.code` is the link's key: its code on this domain (links/link-key.ts). */
  domainId: number;
  link: ImportedLink;
  /** The row's content key (derived-code.ts) when it had no code; undefined when it had one. */
  derivedFrom: string | undefined;
  attempt: number;
}

/**
 * Stores the links of an import (docs/migrating.md).
 * Each row is checked as a create checks it (the long URL's rules and the
 * hosts it may not name, the alias's, every option's), then stored in
 * batches with its count and dates; a code already taken is skipped,
 * never overwritten, so a second run of the same file changes nothing.
 *
 * A row without a code gets one derived from its content (derived-code.ts):
 * a second run derives the same code, finds it taken by the link it made
 * the first time (same long URL), and skips the row. Identical rows
 * without codes are therefore one link. No row brings a password: no
 * export carries one, and a link that had one is skipped rather than
 * opened to anyone.
 */
export class Importer {
  constructor(private readonly deps: ImporterDeps) {}

  async *run(rows: AsyncIterable<ImportRow>, options: ImportOptions): AsyncGenerator<ImportEvent> {
    const now = this.deps.clock();
    const tokenHashes = unmanagedTokenHashes();
    const hosts = [...options.requestHosts];
    const batchSize = options.batchSize ?? importBatchSize;
    const progressEvery = options.progressEvery ?? progressEveryLines;
    const counts: ImportCounts = { lines: 0, imported: 0, skipped: 0, problems: 0 };
    const tell = (outcome: ImportOutcome): ImportEvent => {
      if (outcome.status === "skipped") counts.skipped++;
      else counts.problems++;
      return { outcome };
    };
    let batch: Pending[] = [];
    let progressAt = progressEvery;
    let fault: SourceFault | undefined;
    for await (const row of untilFault(rows)) {
      if ("fault" in row) {
        fault = row;
        break;
      }
      counts.lines = Math.max(counts.lines, row.line);
      const checked =
        "problem" in row ? { line: row.line, status: "problem" as const, reason: row.problem } : await this.check(row, now, hosts, tokenHashes, options);
      if ("status" in checked) yield tell(checked);
      else batch.push(checked);
      if (batch.length >= batchSize) {
        for (const outcome of await this.paidStore(batch, options, counts)) yield tell(outcome);
        batch = [];
      }
      if (counts.lines >= progressAt) {
        progressAt = counts.lines + progressEvery;
        yield { progress: { ...counts } };
      }
    }
    // The rows read before a fault of the file are stored as any others; the fault then ends the import.
    for (const outcome of await this.paidStore(batch, options, counts)) yield tell(outcome);
    if (fault) throw fault.fault;
    yield { summary: { ...counts, dry_run: options.dryRun, unknown_domains: options.domains?.unknownDomains ?? [] } };
  }

  /** The link a row makes, or why it makes none. */
  private async check(
    record: ImportRecord,
    now: Date,
    hosts: readonly string[],
    tokenHashes: () => string,
    { domains, workspaceId, domainRefusal, publicStatsRefusal }: ImportOptions,
  ): Promise<Pending | ImportOutcome> {
    const { line } = record;
    const problem = (reason: string): ImportOutcome => ({ line, status: "problem", reason });
    if (record.passwordProtected) {
      return { line, status: "skipped", short_url: record.code, reason: "the link has a password, which no export carries: create it again with one" };
    }
    if (record.code !== undefined) {
      const refusal = aliasProblem(record.code);
      if (refusal) return { line, status: "skipped", short_url: record.code, reason: refusal };
    }
    let longUrl: string;
    let options: ParsedOptions;
    try {
      checkStorable(record);
      longUrl = this.checkedUrl(record.longUrl, hosts, "long_url");
      options = parseOptions(optionsInput(record), (raw, field) => this.checkedUrl(raw, hosts, field), now, false);
    } catch (error) {
      if (error instanceof HttpError) return problem(error.message);
      throw error;
    }
    if (options.publicStats === true && publicStatsRefusal !== undefined) return problem(publicStatsRefusal);
    const domainId = domains ? await domains.idOf(record.domain) : defaultDomainId;
    if (typeof domainId !== "number") return problem(domainId.problem);
    const refusal = domainRefusal?.(domainId);
    if (refusal !== undefined) return problem(refusal);
    const { password: _none, ...stored } = options;
    const createdAt = record.createdAt ?? now;
    const link: ImportedLink = {
      ...stored,
      code: linkKey(domainId, record.code ?? ""),
      longUrl,
      // An imported link is managed by admins and API keys: no manage token matches it.
      manageTokenHash: tokenHashes(),
      accessCount: record.accessCount ?? 0,
      createdAt,
      updatedAt: record.updatedAt ?? createdAt,
      lastAccessedAt: record.lastAccessedAt ?? null,
      workspaceId: workspaceId ?? null,
    };
    if (record.code !== undefined) return { line, domainId, link, derivedFrom: undefined, attempt: 0 };
    const key = contentKey(link, record.createdAt);
    return { line, domainId, link: { ...link, code: linkKey(domainId, derivedCode(key, 0)) }, derivedFrom: key, attempt: 0 };
  }

  /** The long URL's rule (LinkService.validUrl): its shape, the hosts it may not name, the threat lists. Throws an HttpError. */
  private checkedUrl(raw: string, hosts: readonly string[], field: string): string {
    return this.deps.targets.destination(raw, hosts, field);
  }

  /** store, once the batch's links are paid for (ImportOptions.spend). */
  private async paidStore(batch: Pending[], options: ImportOptions, counts: ImportCounts): Promise<ImportOutcome[]> {
    if (!options.dryRun && batch.length > 0) await options.spend?.(batch.length);
    return this.store(batch, options.dryRun, counts);
  }

  /**
   * Stores a batch (or, in a dry run, only reads which of its codes are
   * taken) and answers the rows skipped; counts the imported. A derived
   * code taken by another link (another long URL) is derived again, a few
   * times, as a generated code is.
   */
  private async store(batch: Pending[], dryRun: boolean, counts: ImportCounts): Promise<ImportOutcome[]> {
    const outcomes: ImportOutcome[] = [];
    let pending = batch;
    while (pending.length > 0) {
      const { taken, refused } = dryRun ? { taken: await this.takenInDryRun(pending), refused: new Map<Pending, string>() } : await this.insert(pending);
      for (const [row, reason] of refused) outcomes.push({ line: row.line, status: "problem", reason });
      const again: Pending[] = [];
      const conflicts = pending.filter((row) => taken.has(row));
      counts.imported += pending.length - conflicts.length - refused.size;
      const derivedConflicts = conflicts.filter((row) => row.derivedFrom !== undefined);
      const existing = new Map((await this.deps.store.findMany(derivedConflicts.map((row) => row.link.code))).map((link) => [link.code, link.longUrl]));
      for (const row of conflicts) {
        const code = codeOfKey(row.link.code);
        if (row.derivedFrom === undefined) {
          outcomes.push({ line: row.line, status: "skipped", short_url: code, reason: `short_url "${code}" is taken` });
        } else if (existing.get(row.link.code) === row.link.longUrl || !existing.has(row.link.code)) {
          // Its own earlier import (or an identical row before it, which took the code in this batch).
          outcomes.push({ line: row.line, status: "skipped", short_url: code, reason: "already imported (the same link, without a code in the file)" });
        } else if (row.attempt + 1 < derivedCodeAttempts) {
          const attempt = row.attempt + 1;
          again.push({ ...row, attempt, link: { ...row.link, code: linkKey(row.domainId, derivedCode(row.derivedFrom, attempt)) } });
        } else {
          outcomes.push({ line: row.line, status: "problem", reason: `no free code after ${derivedCodeAttempts} attempts` });
        }
      }
      pending = again;
    }
    return outcomes.sort((a, b) => a.line - b.line);
  }

  /**
   * Inserts the batch; answers its rows whose codes were taken (before, or
   * by an earlier row of it), and those the database refused, with why.
   * The checks above let through only what every engine stores; should a
   * value still be refused, the batch's transaction stores none of it, so
   * the batch is inserted again row by row: the refused row is reported,
   * the others are stored. A database out of reach stops the import.
   */
  private async insert(rows: Pending[]): Promise<{ taken: Set<Pending>; refused: Map<Pending, string> }> {
    let inserted: string[];
    try {
      inserted = await this.deps.store.insertImported(rows.map((row) => row.link));
    } catch (error) {
      if (storageUnavailable(error)) throw error;
      this.deps.log?.warn("an import batch was refused; storing it row by row", { rows: rows.length, error: describeError(error) });
      return this.insertOneByOne(rows);
    }
    await this.deps.onInserted?.(inserted);
    return { taken: rowsFindingTaken(rows, new Set(inserted)), refused: new Map() };
  }

  private async insertOneByOne(rows: Pending[]): Promise<{ taken: Set<Pending>; refused: Map<Pending, string> }> {
    const inserted: string[] = [];
    const refused = new Map<Pending, string>();
    try {
      for (const row of rows) {
        try {
          inserted.push(...(await this.deps.store.insertImported([row.link])));
        } catch (error) {
          if (storageUnavailable(error)) throw error;
          refused.set(row, refusal(error));
        }
      }
    } finally {
      // Told even when the database goes away midway: the rows stored so far are stored.
      if (inserted.length > 0) await this.deps.onInserted?.(inserted);
    }
    return {
      taken: rowsFindingTaken(
        rows.filter((row) => !refused.has(row)),
        new Set(inserted),
      ),
      refused,
    };
  }

  /** The rows an insert would find taken, without inserting: codes taken in the store, and repeats within the batch. */
  private async takenInDryRun(rows: Pending[]): Promise<Set<Pending>> {
    const existing = new Set((await this.deps.store.findMany(rows.map((row) => row.link.code))).map((link) => link.code));
    return rowsFindingTaken(rows, new Set(rows.map((row) => row.link.code).filter((code) => !existing.has(code))));
  }
}

/** Why the database refused a row, as a report says it: the engine's code (a Postgres SQLSTATE, SQLite's result code), not its message. */
function refusal(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? `the database refused to store it (${code})` : "the database refused to store it";
}

/** Reading the file failed midway: it turned binary or not UTF-8, or grew past its limit. */
interface SourceFault {
  fault: unknown;
}

/** The rows of `rows`, then, if reading them fails, the fault (as the last item, not thrown). */
async function* untilFault(rows: AsyncIterable<ImportRow>): AsyncGenerator<ImportRow | SourceFault> {
  try {
    yield* rows;
  } catch (fault) {
    yield { fault };
  }
}

/** Of rows whose `free` codes were inserted, the first row with each took it; every other row found its code taken. */
function rowsFindingTaken(rows: Pending[], free: Set<string>): Set<Pending> {
  const taken = new Set<Pending>();
  for (const row of rows) {
    if (free.has(row.link.code)) free.delete(row.link.code);
    else taken.add(row);
  }
  return taken;
}

/**
 * The record's dates and count are ones every engine stores alike (each
 * parser reads them so already; this holds for a record of any source):
 * a date Postgres refuses and SQLite keeps (year 0, year 10000) would fail
 * the batch on one engine only. Throws an HttpError naming the field.
 */
function checkStorable(record: ImportRecord): void {
  const dates = { created_at: record.createdAt, updated_at: record.updatedAt, last_accessed_at: record.lastAccessedAt, expires_at: record.expiresAt };
  for (const [field, at] of Object.entries(dates)) if (at) storableInstant(at, field);
  const count = record.accessCount;
  if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) {
    throw InvalidRequest.because(`access_count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  }
}

/** A record's options as a request would send them, for parseOptions: only those the record has. */
function optionsInput(record: ImportRecord): OptionsInput {
  const input: OptionsInput = {};
  if (record.expiresAt !== undefined) input.expires_at = record.expiresAt === null ? null : record.expiresAt.toISOString();
  if (record.maxVisits !== undefined) input.max_visits = record.maxVisits;
  if (record.expiredUrl !== undefined) input.expired_url = record.expiredUrl;
  if (record.redirectStatus !== undefined) input.redirect_status = record.redirectStatus;
  if (record.tags !== undefined) input.tags = importedTags(record.tags);
  if (record.title !== undefined) input.title = importedTitle(record.title);
  if (record.forwardQuery !== undefined) input.forward_query = record.forwardQuery;
  if (record.rules !== undefined) input.rules = record.rules;
  if (record.publicStats !== undefined) input.public_stats = record.publicStats;
  return input;
}
