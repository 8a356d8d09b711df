import { and, count, desc, eq, isNull, lt } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { NewReport, Report, ReportAction, ReportStore } from "../../threats/report.ts";
import { links, reports } from "./schema.ts";

export class SqliteReportStore implements ReportStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(report: NewReport, maxOpen: number): Promise<Report | null> {
    // bun:sqlite is synchronous: nothing runs between the count and the insert.
    return this.db.transaction((tx) => {
      const link = tx.select({ code: links.code }).from(links).where(eq(links.code, report.code)).get();
      if (!link) return null;
      const open = tx
        .select({ open: count() })
        .from(reports)
        .where(and(eq(reports.code, report.code), isNull(reports.resolution)))
        .get();
      if ((open?.open ?? 0) >= maxOpen) return null;
      return tx.insert(reports).values(report).returning().get() ?? null;
    });
  }

  async page(query: { open: boolean; limit: number; before?: number }): Promise<Report[]> {
    return this.db
      .select()
      .from(reports)
      .where(and(query.open ? isNull(reports.resolution) : undefined, query.before === undefined ? undefined : lt(reports.id, query.before)))
      .orderBy(desc(reports.id))
      .limit(query.limit)
      .all();
  }

  async find(id: number): Promise<Report | null> {
    return this.db.select().from(reports).where(eq(reports.id, id)).get() ?? null;
  }

  async resolveLink(code: string, action: ReportAction, at: Date): Promise<number> {
    return this.db
      .update(reports)
      .set({ resolution: action, resolvedAt: at })
      .where(and(eq(reports.code, code), isNull(reports.resolution)))
      .returning({ id: reports.id })
      .all().length;
  }

  async openCount(): Promise<number> {
    return this.db.select({ open: count() }).from(reports).where(isNull(reports.resolution)).get()?.open ?? 0;
  }
}
