import type { ForwardQuery } from "../providers/forward-query.ts";
import type { JobPointInput } from "./job-store.ts";
import { storedId, storedQuery } from "./job-rows.ts";

// What a job is charged for in the quotas (job-quota.ts): an estimate of the disk its rows take, made from the
// text it stores, so both engines count the same and a job's share is known before anything is written.
// Measured on 100,000 points (2026-12, bun:sqlite and Postgres 15), a point takes at creation 207 B (SQLite) and
// 328 B (Postgres) with an id of 10 characters, 339 and 442 B with 120; writing a 302-byte answer adds 258-262 B on
// SQLite and 460-581 B on Postgres, where an update leaves the old row until vacuum. The model charges 884 and
// 1,104 B for those points answered: above both engines.

/** What a point's row costs besides its id and its result: the row, its key and its index entries. */
const pointRowBytes = 256;

/** A waiting point's result, reserved until it is written: an answer with one address is about 300 bytes of JSON, an error about 150. */
const pointReserveBytes = 512;

/**
 * A waiting forward query's result: up to its limit's places (LOCAL's take 300-330 bytes each in JSON: 5.9-6.6 KB
 * for 20), reserved at 384 bytes a place and 128 for the rest; 2,048 bytes at the default limit of 5.
 */
const placeReserveBytes = 384;
const forwardReserveBaseBytes = 128;

/** What is reserved for a waiting item's result: a point's, or a forward query's by its limit. */
export function reserveBytes(query: ForwardQuery | null | undefined): number {
  return query ? forwardReserveBaseBytes + placeReserveBytes * query.limit : pointReserveBytes;
}

/**
 * The same reserve in SQL, from a point's row (its `query` column): `limitSql` reads the query's limit from its JSON
 * on the engine at hand. What a cancellation gives back, summed over the points left.
 */
export function reserveSql(limitSql: string): string {
  return `CASE WHEN query IS NULL THEN ${pointReserveBytes} ELSE ${forwardReserveBaseBytes} + ${placeReserveBytes} * (${limitSql}) END`;
}

/**
 * The least a job is charged, however few its points: its own row, and its
 * place in every claim's walk over running jobs. It bounds how many jobs
 * the store can hold (16 per MiB of GEOCODER_JOBS_MAX_MIB), so the sums a
 * quota check makes over them stay short.
 */
export const minJobBytes = 64 * 1024;

/** What a job whose points add up to `bytes` is charged. */
export function chargedBytes(bytes: number): number {
  return Math.max(minJobBytes, bytes);
}

const utf8Bytes = (text: string | null) => (text === null ? 0 : Buffer.byteLength(text, "utf8"));

/** A point's charge: its row, and twice its id, its query (forward) and its result as stored (the reserve while it waits). */
function pointBytes(point: Pick<JobPointInput, "id" | "query" | "result">): number {
  const result = point.result ? utf8Bytes(JSON.stringify(point.result)) : reserveBytes(point.query);
  return pointRowBytes + 2 * (utf8Bytes(storedId(point.id)) + utf8Bytes(storedQuery(point.query)) + result);
}

/** What a new job's points are charged, and how many of them wait for an answer (the others were refused when it was made). */
export function jobSize(points: readonly JobPointInput[]): { bytes: number; waiting: number } {
  let bytes = 0;
  let waiting = 0;
  for (const point of points) {
    bytes += pointBytes(point);
    if (!point.result) waiting++;
  }
  return { bytes, waiting };
}

/** How a job's charge moves when a waiting item's result is written: the result's bytes in place of its reserve (a forward query's by its limit). */
export function resultBytesChange(query: ForwardQuery | null, result: string): number {
  return 2 * (utf8Bytes(result) - reserveBytes(query));
}

/** What a cancellation gives back for a point that will never get a result: twice its reserve (`reserveSql` sums it in the stores). */
export const unansweredShare = 2;

/** The charge of a job kept before jobs were charged (its points' ids unknown to the job's row): each point as if it had no id and waited. */
export const legacyPointBytes = pointBytes({ id: null });
