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
