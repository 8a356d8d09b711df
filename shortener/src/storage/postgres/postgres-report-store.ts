import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { NewReport, Report, ReportAction, ReportStore } from "../../threats/report.ts";
import { reports } from "./schema.ts";

/** The advisory locks' first key for reports (the second is the link's code, hashed). */
const reportLockSpace = 4901;

export class PostgresReportStore implements ReportStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(report: NewReport, maxOpen: number): Promise<Report | null> {
    // Reports of one link, one at a time (a lock of their own, not the link's row, which its redirects write): the
    // insert after it is a statement of its own, so its count sees every report committed before.
    const rows = await this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${reportLockSpace}, hashtext(${report.code}))`);
      return tx.execute<{ id: string }>(sql`
        INSERT INTO reports (code, reason, note, created_at)
        SELECT code, ${report.reason}, ${report.note}, ${report.createdAt.toISOString()}::timestamptz FROM links
        WHERE code = ${report.code}
          AND (SELECT count(*) FROM reports WHERE code = ${report.code} AND resolution IS NULL) < ${maxOpen}
        RETURNING id`);
    });
    const [row] = rows;
    return row ? { ...report, id: Number(row.id), resolution: null, resolvedAt: null } : null;
  }

  page(query: { open: boolean; limit: number; before?: number }): Promise<Report[]> {
    return this.db
      .select()
      .from(reports)
      .where(and(query.open ? isNull(reports.resolution) : undefined, query.before === undefined ? undefined : lt(reports.id, query.before)))
      .orderBy(desc(reports.id))
      .limit(query.limit);
  }

  async find(id: number): Promise<Report | null> {
    const [row] = await this.db.select().from(reports).where(eq(reports.id, id));
    return row ?? null;
  }

  async resolveLink(code: string, action: ReportAction, at: Date): Promise<number> {
    const rows = await this.db
      .update(reports)
      .set({ resolution: action, resolvedAt: at })
      .where(and(eq(reports.code, code), isNull(reports.resolution)))
      .returning({ id: reports.id });
    return rows.length;
  }

  async openCount(): Promise<number> {
    const [row] = await this.db.select({ open: count() }).from(reports).where(isNull(reports.resolution));
    return row?.open ?? 0;
  }
}
