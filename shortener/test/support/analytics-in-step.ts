import { expect } from "bun:test";
import type postgres from "postgres";

export interface AnalyticsSample {
  count: number;
  buckets: number;
  breakdowns: Record<string, number>;
}

/**
 * A link's access_count beside the sum of its hourly buckets and of each
 * breakdown, read from Postgres in one statement, so in one snapshot: the
 * analytics' invariant is that they are all equal, at every moment.
 */
export async function analyticsBeside(sql: postgres.Sql, code: string): Promise<AnalyticsSample> {
  const [row] = await sql<AnalyticsSample[]>`
    SELECT l.access_count::float8 AS count,
      (SELECT coalesce(sum(b.humans + b.bots), 0)::float8 FROM link_visit_buckets b WHERE b.code = l.code) AS buckets,
      (SELECT coalesce(json_object_agg(d.dimension, d.total), '{}'::json) FROM (
        SELECT f.dimension, sum(f.visits)::float8 AS total FROM link_visit_facts f WHERE f.code = l.code GROUP BY f.dimension
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
