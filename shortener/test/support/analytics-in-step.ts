import { expect } from "bun:test";
import type postgres from "postgres";

export interface AnalyticsSample {
  count: number;
  buckets: number;
  breakdowns: Record<string, number>;
}

/**
 * A link's access_count beside the sum of its hourly buckets and of each
 * breakdown, each with what the visit log still holds for it (summed and
 * unsummed: what a read sees), read from Postgres in one statement, so in
 * one snapshot: the analytics' invariant is that they are all equal, at
 * every moment.
 */
export async function analyticsBeside(sql: postgres.Sql, code: string): Promise<AnalyticsSample> {
  const [row] = await sql<AnalyticsSample[]>`
    SELECT l.access_count::float8 AS count,
      (SELECT coalesce(sum(b.humans + b.bots), 0)::float8 FROM link_visit_buckets b WHERE b.code = l.code)
        + (SELECT coalesce(sum(g.humans + g.bots), 0)::float8 FROM link_visit_log g WHERE g.code = l.code) AS buckets,
      (SELECT coalesce(json_object_agg(d.dimension, d.total), '{}'::json) FROM (
        SELECT dimension, sum(visits)::float8 AS total FROM (
          SELECT f.dimension, f.visits FROM link_fact_rows f WHERE f.code = l.code
          UNION ALL
          SELECT e->>0, (e->>2)::bigint FROM link_visit_log g, jsonb_array_elements(g.facts::jsonb) AS e WHERE g.code = l.code
        ) AS summed_and_not GROUP BY dimension
      ) d) AS breakdowns
    FROM links l WHERE l.code = ${code}`;
  if (!row) throw new Error(`no link ${code}`);
  return row;
}

/** The invariant: the buckets and each of the five breakdowns add up to access_count. */
export function expectAnalyticsInStep(sample: AnalyticsSample): void {
  const expected = sample.count === 0 ? {} : Object.fromEntries(["browsers", "countries", "devices", "os", "referrers"].map((d) => [d, sample.count]));
  expect({ buckets: sample.buckets, breakdowns: sample.breakdowns }).toEqual({ buckets: sample.count, breakdowns: expected });
}
