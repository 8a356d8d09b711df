import postgres from "postgres";
import { BenchError } from "./lifecycle.ts";

/**
 * BENCH_PG_SETTINGS (`name=value,…`, Postgres): settings of a benchmark's
 * throwaway database itself (`ALTER DATABASE … SET`), which every session
 * the shortener opens then has, such as `wal_compression=lz4`; the
 * server's own (max_wal_size, checkpoint_timeout) are its operator's, not
 * set here. Returns what was set, for the report; undefined when unset.
 */
export async function applyDatabaseSettings(url: string): Promise<string | undefined> {
  const raw = process.env.BENCH_PG_SETTINGS?.trim();
  if (!raw) return undefined;
  const settings = raw.split(",").map((pair) => pair.trim().split("="));
  if (!settings.every((pair) => pair.length === 2 && /^[a-z_]+$/.test(pair[0]!) && /^[A-Za-z0-9_.]+$/.test(pair[1]!))) {
    throw new BenchError("BENCH_PG_SETTINGS is name=value pairs, comma-separated, such as wal_compression=lz4");
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [database] = await sql<Array<{ name: string }>>`SELECT current_database() AS name`;
    for (const [setting, value] of settings) await sql.unsafe(`ALTER DATABASE "${database!.name}" SET ${setting} = '${value}'`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return raw;
}

/**
 * What a benchmark at scale prints when the server it runs on has
 * autovacuum off (the test machines' Postgres does: conf.d/90-ci.conf),
 * else undefined. A production server vacuums: its visit log stays tens of
 * MB instead of growing by 15 MB a minute under uniform redirects, and
 * vacuum writes WAL of its own (bench:wal measured 3,459 B per uniform
 * redirect with autovacuum on against 3,291 B off, back to back on
 * 2026-12-07). Never turned on here: the server's settings are its
 * operator's.
 */
export function autovacuumWarning(autovacuum: string): string | undefined {
  if (autovacuum !== "off") return undefined;
  return "autovacuum is off on this server: a production server's vacuum writes WAL too and keeps the visit log small; `ALTER SYSTEM SET autovacuum = on` and `SELECT pg_reload_conf()` measure what one does";
}

/** A setting of the server `url` reaches, as that database's sessions see it. */
export async function serverSetting(url: string, name: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<Array<{ value: string }>>`SELECT current_setting(${name}) AS value`;
    return row!.value;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
