import type { Sql, TransactionSql } from "postgres";
import { addFactRows, linkDayKey, namedIn } from "../../visits/fact-days.ts";
import type { FactDaysMoveStep, LinkDay } from "../../visits/fact-days-moving.ts";
import { loadFactDays, moveFactDaysStep, storeFactDays } from "./postgres-fact-days.ts";
import { boundedFactRows, parseLoggedFacts, sumLogged, visitLogRowsPerStep, type LoggedVisits } from "../../visits/visit-log.ts";

/**
 * Taken (for its transaction) by whatever reads or deletes the visit log:
 * a summing step, and the deletion of a link. One summing step at a time
 * over every replica, so the bound on named values is kept by one writer
 * and no row is summed twice. Not the upkeep lock (visitUpkeepLockId): the
 * fold and the daily rollups never touch the hours the log still holds,
 * and a read's summing step must not wait behind them.
 */
export const visitLogLockId = 7_202_613;

/**
 * One summing step: at most `visitLogRowsPerStep` rows of the visit log
 * added to the buckets and breakdowns and deleted, in one transaction (a
 * step killed halfway leaves every row where it was). `wait`: wait for the
 * lock (a read, which must see every visit counted before it), or give up
 * when another replica holds it (the background job). Returns the rows it
 * summed; a step that summed fewer than the limit found the log empty.
 */
async function sumVisitLogStep(sql: Sql, wait: boolean): Promise<number> {
  return sql.begin(async (tx) => {
    if (wait) await tx`SELECT pg_advisory_xact_lock(${visitLogLockId})`;
    else {
      const [lock] = await tx<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${visitLogLockId}) AS taken`;
      if (!lock?.taken) return 0;
    }
    // Rows of links deleted meanwhile are not here: a deletion takes this lock and deletes its link's rows.
    // The inserts below check that each link exists all the same (a plain read: no lock on links rows, which
    // batches hold), so a row that outlived its link by some other way is dropped rather than summed.
    // facts as the batch wrote them (text, migration 0016), parsed here.
    const rows = await tx<Array<Omit<LoggedVisits, "facts"> & { facts: string }>>`
      DELETE FROM link_visit_log WHERE ctid = ANY(ARRAY(SELECT ctid FROM link_visit_log LIMIT ${visitLogRowsPerStep}))
      RETURNING code, (extract(epoch FROM at) * 1000)::float8 AS at, humans, bots, facts`;
    if (rows.length === 0) return 0;
    const { buckets, days } = sumLogged(rows.map((row) => ({ ...row, facts: parseLoggedFacts(row.facts) })));
    // Each sum is added to its row where there is one, and inserted where there is none: an UPDATE, then a plain
    // INSERT of the rest. Not INSERT … ON CONFLICT DO UPDATE, whose speculative insert and row lock cost a WAL
    // record each per row (HEAP_CONFIRM, LOCK). Under the log's lock no one else adds these rows (the fold writes
    // days older than any logged visit; should it ever collide, the step fails whole and the next one adds them).
    await tx`
      WITH b AS (
        SELECT b.code, to_timestamp(b.starts_at / 1000.0) AS starts_at, b.humans, b.bots
        FROM unnest(${buckets.map((b) => b.code)}::text[], ${buckets.map((b) => b.startsAt)}::float8[],
          ${buckets.map((b) => b.humans)}::bigint[], ${buckets.map((b) => b.bots)}::bigint[]) AS b(code, starts_at, humans, bots)
        WHERE EXISTS (SELECT 1 FROM links WHERE links.code = b.code)
      ), added AS (
        UPDATE link_visit_buckets SET humans = link_visit_buckets.humans + b.humans, bots = link_visit_buckets.bots + b.bots
        FROM b WHERE link_visit_buckets.code = b.code AND link_visit_buckets.starts_at = b.starts_at
        RETURNING link_visit_buckets.code, link_visit_buckets.starts_at
      )
      INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots)
      SELECT b.code, b.starts_at, 1, b.humans, b.bots FROM b
      WHERE NOT EXISTS (SELECT 1 FROM added WHERE added.code = b.code AND added.starts_at = b.starts_at)`;
    // The days' documents, read and written back whole under the log's lock (the only writer of them but a
    // link's deletion, which takes the lock too): the bound on named values counts what each already names.
    const loaded = await loadFactDays(tx, days);
    addFactRows(
      loaded.days,
      boundedFactRows(days, (code, day, dimension) => namedIn(loaded.days.get(linkDayKey(code, day)), dimension)),
    );
    await storeFactDays(tx, loaded);
    await refreshSortKeys(tx, [...new Set(rows.map((row) => row.code))]);
    return rows.length;
  });
}

/**
 * The listing's sort keys (migration 0015) of the links a step summed, set
 * to their counts where they differ (a visit to a quiet link set them
 * already: postgres-link-store.ts, countVisits); only those rows are locked
 * and written. A link a batch holds right now is skipped, not waited for (a
 * batch locks its links before the log's lock is ever its concern, so
 * waiting could close a cycle): it gets an empty row in the log again, for
 * a later step, so its keys are refreshed even if that batch rolls back.
 */
async function refreshSortKeys(tx: TransactionSql, codes: string[]): Promise<void> {
  const behind = tx`(links.sorted_access_count, links.sorted_last_accessed_at) IS DISTINCT FROM (links.access_count, links.last_accessed_at)`;
  await tx`
    WITH named AS (
      SELECT unnest(${codes}::text[]) AS code
    ), stale AS (
      SELECT links.code FROM links JOIN named USING (code) WHERE ${behind}
    ), locked AS (
      SELECT links.code FROM links JOIN stale USING (code) WHERE ${behind} ORDER BY links.code FOR NO KEY UPDATE OF links SKIP LOCKED
    ), refreshed AS (
      UPDATE links SET sorted_access_count = links.access_count, sorted_last_accessed_at = links.last_accessed_at
      FROM locked WHERE links.code = locked.code AND ${behind}
    )
    INSERT INTO link_visit_log (code, at, humans, bots, facts)
    SELECT stale.code, now(), 0, 0, '[]' FROM stale
    WHERE NOT EXISTS (SELECT 1 FROM locked WHERE locked.code = stale.code)`;
}

/**
 * Summing steps until one finds fewer rows than the limit (the log as it
 * stood is summed) or, without `wait`, finds the lock taken. Returns the
 * rows summed.
 */
export async function sumVisitLog(sql: Sql, wait: boolean): Promise<number> {
  let summed = 0;
  for (let step = visitLogRowsPerStep; step === visitLogRowsPerStep; summed += step) step = await sumVisitLogStep(sql, wait);
  return summed;
}

/**
 * One step of moving breakdowns from the old layout into the days'
 * documents (postgres-fact-days.ts), going on after `after`; "busy" when
 * another replica holds the log's lock.
 */
export async function moveFactDays(sql: Sql, after: LinkDay): Promise<FactDaysMoveStep> {
  return sql.begin(async (tx): Promise<FactDaysMoveStep> => {
    const [lock] = await tx<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${visitLogLockId}) AS taken`;
    return lock?.taken ? moveFactDaysStep(tx, after) : "busy";
  });
}

/** Sums the whole log as it stands, waiting for the lock: after it, every visit counted before the call is in the buckets and breakdowns. */
export function settleVisitLog(sql: Sql): Promise<number> {
  return sumVisitLog(sql, true);
}

/**
 * Deletes a link's visits, in the transaction that deletes the link, before
 * it does and after takeOutOfRollups has read them: its rows of the log
 * (never summed, so nothing else needs them taken out), its buckets and its
 * breakdowns (which keep no foreign key, migration 0014). The log's lock
 * comes first (it is always taken before any row lock), so no summing step
 * adds rows for the link meanwhile; then the link's row, so a batch that
 * counted it has committed its log rows, and every later one finds the
 * link gone.
 */
export async function deleteLinkVisits(tx: TransactionSql, code: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${visitLogLockId})`;
  await tx`SELECT 1 FROM links WHERE code = ${code} FOR UPDATE`;
  await tx`DELETE FROM link_visit_log WHERE code = ${code}`;
  await tx`DELETE FROM link_visit_buckets WHERE code = ${code}`;
  await tx`DELETE FROM link_visit_facts_old WHERE code = ${code}`;
  await tx`DELETE FROM link_fact_days WHERE code = ${code}`;
}
