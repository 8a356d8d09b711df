import { describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { Registry } from "prom-client";
import { openSqliteDatabase } from "../src/storage/open-database.ts";
import { visitMetrics } from "../src/visits/visit-metrics.ts";
import { startTestShortener } from "./support/test-shortener.ts";

async function metricValue(registry: Registry, name: string): Promise<number | undefined> {
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const value of metric.values)
      if ((value as { metricName?: string }).metricName === name || (metric.name === name && !("metricName" in value))) return value.value;
  }
  return undefined;
}

describe("visit metrics", () => {
  test("count the redirects committed (unknown codes not), the batch sizes and each commit's time", async () => {
    const registry = new Registry();
    await using api = await startTestShortener({ visitObserver: visitMetrics(registry) });
    const link = await api.createLink();
    const answers = await Promise.all([...Array.from({ length: 5 }, () => api.request("GET", `/${link.short_url}/`)), api.request("GET", "/no-such-link/")]);
    expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302, 404]);
    expect(await metricValue(registry, "shortener_redirects_counted_total")).toBe(5);
    // Six visits went in one turn: one write of six.
    expect(await metricValue(registry, "shortener_visit_batch_size_count")).toBe(1);
    expect(await metricValue(registry, "shortener_visit_batch_size_sum")).toBe(6);
    expect(await metricValue(registry, "shortener_visit_commit_seconds_count")).toBe(1);
    expect(await metricValue(registry, "shortener_visit_batch_failures_total")).toBe(0);
  });

  test("a write that fails counts as a failure, and its redirects are not counted", async () => {
    const registry = new Registry();
    const sqlite = new SqliteDatabase(":memory:", { strict: true });
    await using api = await startTestShortener({ visitObserver: visitMetrics(registry), database: openSqliteDatabase(sqlite) });
    const link = await api.createLink();
    sqlite.exec("PRAGMA query_only = ON");
    expect((await api.request("GET", `/${link.short_url}/`)).status).toBe(503);
    expect(await metricValue(registry, "shortener_visit_batch_failures_total")).toBe(1);
    expect(await metricValue(registry, "shortener_redirects_counted_total")).toBe(0);
    sqlite.close();
  });
});
