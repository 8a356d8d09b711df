import type { TransactionSql } from "postgres";

/**
 * Plans without JIT and parallel workers, for the rest of the transaction:
 * for statements that read the view link_fact_rows (migration 0030), or a
 * UNION ALL Postgres cannot estimate. Postgres guesses 100 rows for each
 * jsonb_each, so a day's document looks like 10,000 rows instead of ten;
 * past jit_above_cost it then compiles the plan (20 ms and more) and plans
 * workers (measured: a link's year of breakdowns 105-205 ms with them, 5 ms
 * without; a day of 3,000 links' 124-524 ms, 26 ms without), for reads of a
 * few thousand rows. One round trip.
 */
export async function plainPlans(tx: TransactionSql): Promise<void> {
  await tx`SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`;
}
