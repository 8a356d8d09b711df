import type { Database, Statement } from "bun:sqlite";
import type { LinkVisits } from "../../visits/link-visits.ts";
import { otherValue } from "../../visits/named-values.ts";
import { boundedFactRows, loggedFacts, parseLoggedFacts, sumLogged, visitLogRowsPerStep, type LoggedVisits } from "../../visits/visit-log.ts";

type LogRow = Omit<LoggedVisits, "facts"> & { facts: string };

/**
 * The visit log on bun:sqlite (migration 0013), as postgres-visit-log.ts
 * keeps it on Postgres: a batch appends, a summing step sums and deletes in
 * one transaction, and refreshes the listing's sort keys of the links it
 * summed. SQLite has one writer, so its transaction is the lock.
 */
export class SqliteVisitLog {
  private readonly append: Statement<unknown, [string, number, number, number, string]>;
  private readonly take: Statement<LogRow, [number]>;
  private readonly addToBucket: Statement<unknown, [string, number, number, number]>;
  private readonly addToFacts: Statement<unknown, [string, string, string, string, number, number]>;
  private readonly countNamed: Statement<{ named: number }, [string, string, string, string]>;
  private readonly findNamed: Statement<unknown, [string, string, string, string]>;
  private readonly forget: Statement<unknown, [string]>;
  private readonly refreshSortKeys: Statement<unknown, [string]>;
  /** One summing step in one transaction; returns the rows it summed (fewer than the limit: the log is empty). */
  readonly sumStep: () => number;

  constructor(sqlite: Database) {
    this.append = sqlite.prepare("INSERT INTO link_visit_log (code, at, humans, bots, facts) VALUES (?, ?, ?, ?, ?)");
    this.take = sqlite.prepare(
      "DELETE FROM link_visit_log WHERE rowid IN (SELECT rowid FROM link_visit_log ORDER BY rowid LIMIT ?) RETURNING code, at, humans, bots, facts",
    );
    this.addToBucket = sqlite.prepare(
      `INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (code, starts_at) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.addToFacts = sqlite.prepare(
      `INSERT INTO link_visit_facts (code, day, dimension, value, visits, bots) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (code, day, dimension, value) DO UPDATE SET visits = visits + excluded.visits, bots = bots + excluded.bots`,
    );
    this.countNamed = sqlite.prepare("SELECT count(*) AS named FROM link_visit_facts WHERE code = ? AND day = ? AND dimension = ? AND value <> ?");
    this.findNamed = sqlite.prepare("SELECT 1 FROM link_visit_facts WHERE code = ? AND day = ? AND dimension = ? AND value = ?");
    this.forget = sqlite.prepare("DELETE FROM link_visit_log WHERE code = ?");
    // The listing's sort keys (migration 0014), set to the counts; written only where they differ.
    this.refreshSortKeys = sqlite.prepare(
      `UPDATE links SET sorted_access_count = access_count, sorted_last_accessed_at = last_accessed_at
       WHERE code = ? AND (sorted_access_count IS NOT access_count OR sorted_last_accessed_at IS NOT last_accessed_at)`,
    );
    this.sumStep = sqlite.transaction(() => this.sumRows()).immediate;
  }

  /** Appends one link's counted visits of a batch; inside the batch's transaction. */
  add(code: string, at: Date, visits: LinkVisits): void {
    this.append.run(code, at.getTime(), visits.humans, visits.bots, loggedFacts(visits));
  }

  /** Deletes a link's rows, never summed; inside the transaction that deletes the link. */
  takeOut(code: string): void {
    this.forget.run(code);
  }

  /** Sums the whole log as it stands, a step per transaction; returns the rows summed. */
  settle(): number {
    let summed = 0;
    for (let step = visitLogRowsPerStep; step === visitLogRowsPerStep; summed += step) step = this.sumStep();
    return summed;
  }

  private sumRows(): number {
    const rows = this.take.all(visitLogRowsPerStep);
    if (rows.length === 0) return 0;
    const { buckets, days } = sumLogged(rows.map((row) => ({ ...row, facts: parseLoggedFacts(row.facts) })));
    for (const bucket of buckets) this.addToBucket.run(bucket.code, bucket.startsAt, bucket.humans, bucket.bots);
    // One writer: what these reads see is what the day holds when the rows are added.
    const named = (code: string, day: string, dimension: string) => ({
      count: this.countNamed.get(code, day, dimension, otherValue)!.named,
      has: (value: string) => this.findNamed.get(code, day, dimension, value) !== null,
    });
    for (const [code, day, dimension, value, visits, bots] of boundedFactRows(days, named)) this.addToFacts.run(code, day, dimension, value, visits, bots);
    for (const code of new Set(rows.map((row) => row.code))) this.refreshSortKeys.run(code);
    return rows.length;
  }
}
