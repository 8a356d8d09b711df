import type { Database, Statement } from "bun:sqlite";
import type { LinkDay } from "../../visits/fact-days-moving.ts";
import type { Dimension, LinkVisits } from "../../visits/link-visits.ts";
import { addFact, addFactRows, factDaysJson, factRowsMovedPerStep, linkDayKey, namedIn, parseDayFacts, type DayFacts } from "../../visits/fact-days.ts";
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
  private readonly readDay: Statement<{ facts: string }, [string, string]>;
  private readonly takeOldDay: Statement<{ dimension: Dimension; value: string; visits: number; bots: number }, [string, string]>;
  private readonly pickOldDays: Statement<LinkDay, [string, string, number]>;
  private readonly writeDay: Statement<unknown, [string, string, string]>;
  private readonly forget: Statement<unknown, [string]>;
  private readonly refreshSortKeys: Statement<unknown, [string]>;
  /** One summing step in one transaction; returns the rows it summed (fewer than the limit: the log is empty). */
  readonly sumStep: () => number;
  /** One step of moving the old layout's breakdowns into the days' documents, after `after` (fact-days-moving.ts). */
  readonly moveStep: (after: LinkDay) => { moved: number; last?: LinkDay };

  constructor(sqlite: Database) {
    this.append = sqlite.prepare("INSERT INTO link_visit_log (code, at, humans, bots, facts) VALUES (?, ?, ?, ?, ?)");
    this.take = sqlite.prepare(
      "DELETE FROM link_visit_log WHERE rowid IN (SELECT rowid FROM link_visit_log ORDER BY rowid LIMIT ?) RETURNING code, at, humans, bots, facts",
    );
    this.addToBucket = sqlite.prepare(
      `INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (code, starts_at) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.readDay = sqlite.prepare("SELECT facts FROM link_fact_days WHERE code = ? AND day = ?");
    // The old layout's rows of a day (a row per value, before migration 0028), taken into its document.
    this.takeOldDay = sqlite.prepare("DELETE FROM link_visit_facts_old WHERE code = ? AND day = ? RETURNING dimension, value, visits, bots");
    this.pickOldDays = sqlite.prepare(
      "SELECT DISTINCT code, day FROM (SELECT code, day FROM link_visit_facts_old WHERE (code, day) > (?, ?) ORDER BY code, day LIMIT ?) ORDER BY code, day",
    );
    this.writeDay = sqlite.prepare(
      "INSERT INTO link_fact_days (code, day, facts) VALUES (?, ?, ?) ON CONFLICT (code, day) DO UPDATE SET facts = excluded.facts",
    );
    this.forget = sqlite.prepare("DELETE FROM link_visit_log WHERE code = ?");
    // The listing's sort keys (migration 0014), set to the counts; written only where they differ.
    this.refreshSortKeys = sqlite.prepare(
      `UPDATE links SET sorted_access_count = access_count, sorted_last_accessed_at = last_accessed_at
       WHERE code = ? AND (sorted_access_count IS NOT access_count OR sorted_last_accessed_at IS NOT last_accessed_at)`,
    );
    this.sumStep = sqlite.transaction(() => this.sumRows()).immediate;
    this.moveStep = sqlite.transaction((after: LinkDay) => this.moveOldDays(after)).immediate;
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
    // One writer: each day's document is read, added to within the bound on named values, and written back.
    const loaded = this.loadDays(days);
    addFactRows(
      loaded,
      boundedFactRows(days, (code, day, dimension) => namedIn(loaded.get(linkDayKey(code, day)), dimension)),
    );
    this.storeDays(loaded);
    for (const code of new Set(rows.map((row) => row.code))) this.refreshSortKeys.run(code);
    return rows.length;
  }

  /** The days' documents, with the old layout's rows of those days added in and deleted. */
  private loadDays(linkDays: ReadonlyArray<{ code: string; day: string }>): Map<string, DayFacts> {
    const loaded = new Map<string, DayFacts>();
    for (const { code, day } of linkDays) {
      const stored = this.readDay.get(code, day);
      const facts = stored ? parseDayFacts(stored.facts) : new Map();
      for (const { dimension, value, visits, bots } of this.takeOldDay.all(code, day)) addFact(facts, dimension, value, { visits, bots });
      loaded.set(linkDayKey(code, day), facts);
    }
    return loaded;
  }

  private storeDays(days: Map<string, DayFacts>): void {
    for (const [key, facts] of days) {
      // A day of visits without breakdowns (none to add, none stored) gets no row.
      if (facts.size === 0) continue;
      const [code, day] = key.split("\n") as [string, string];
      this.writeDay.run(code, day, factDaysJson(facts));
    }
  }

  /** The link-days of the first `factRowsMovedPerStep` old rows after `after`, each moved whole. */
  private moveOldDays(after: LinkDay): { moved: number; last?: LinkDay } {
    const picked = this.pickOldDays.all(after.code, after.day, factRowsMovedPerStep);
    this.storeDays(this.loadDays(picked));
    return { moved: picked.length, last: picked.at(-1) };
  }
}
