import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BenchError } from "./lifecycle.ts";
import { fmtInt } from "./report.ts";

/** One kind of WAL record over a stretch of WAL, as `pg_waldump --stats=record` counts it. */
export interface WalRecordKind {
  /** e.g. "Heap/HOT_UPDATE", "Btree/INSERT_LEAF" */
  type: string;
  records: number;
  /** Bytes of the records themselves, and of the full-page images they carry. */
  recordBytes: number;
  fpiBytes: number;
}

/** pg_waldump of the cluster's own version (Debian keeps each under /usr/lib/postgresql/<version>/bin). */
function pgWaldump(serverVersion: string): string {
  const major = serverVersion.split(".")[0]!;
  const path = join("/usr/lib/postgresql", major, "bin", "pg_waldump");
  if (existsSync(path)) return path;
  const any = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").map((v) => join("/usr/lib/postgresql", v, "bin", "pg_waldump")) : [];
  const found = any.find((candidate) => existsSync(candidate));
  if (!found) throw new BenchError("BENCH_WAL_STATS needs pg_waldump (Debian's postgresql package, /usr/lib/postgresql/<version>/bin)");
  return found;
}

/** The rows of `pg_waldump --stats=record`: Type, N, Record size, FPI size, Combined size, each count with its share. */
export function parseWalStats(output: string): WalRecordKind[] {
  const row = /^(\S+)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+\d+\s+\(\s*[\d.]+\)\s*$/;
  return output.split("\n").flatMap((line) => {
    const match = row.exec(line.trim());
    if (!match || match[1] === "Total") return [];
    return [{ type: match[1]!, records: Number(match[2]), recordBytes: Number(match[3]), fpiBytes: Number(match[4]) }];
  });
}

/** The WAL written between two positions, by record kind (the server's pg_wal directory, read by pg_waldump). */
export function walRecordsBetween(dataDirectory: string, serverVersion: string, from: string, to: string): WalRecordKind[] {
  const run = Bun.spawnSync([pgWaldump(serverVersion), "--stats=record", "-p", join(dataDirectory, "pg_wal"), "-s", from, "-e", to]);
  if (!run.success) throw new BenchError(`pg_waldump failed: ${run.stderr.toString().trim().split("\n")[0]}`);
  return parseWalStats(run.stdout.toString());
}

/** The heaviest kinds per request: "Heap/INSERT 1.0 × 98 B + 0 B FPI", heaviest first. */
export function describeWalPerRequest(kinds: readonly WalRecordKind[], requests: number, top = 8): string[] {
  return [...kinds]
    .sort((a, b) => b.recordBytes + b.fpiBytes - (a.recordBytes + a.fpiBytes))
    .slice(0, top)
    .map(
      (kind) =>
        `${kind.type.padEnd(28)} ${(kind.records / requests).toFixed(2).padStart(6)} records, ${fmtInt(kind.recordBytes / requests).padStart(5)} B + ${fmtInt(kind.fpiBytes / requests).padStart(5)} B of page images each`,
    );
}
