import { BenchError } from "./lifecycle.ts";

/**
 * The knobs every benchmark reads from the environment: BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (64), BENCH_THREADS (1),
 * BENCH_ROUNDS (1), and BENCH_LOG_LEVEL (warn) / BENCH_ACCESS_LOG (false) for
 * the service under test.
 */
export function readSettings() {
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
  const accessLog = process.env.BENCH_ACCESS_LOG ?? "false";
  if (!["debug", "info", "warn", "error"].includes(logLevel)) throw new BenchError(`BENCH_LOG_LEVEL must be debug, info, warn or error`);
  if (!["true", "false"].includes(accessLog)) throw new BenchError(`BENCH_ACCESS_LOG must be true or false`);
  return {
    seconds: intFromEnv("BENCH_SECONDS", 10, 1, 3600),
    warmupSeconds: intFromEnv("BENCH_WARMUP_SECONDS", 2, 0, 600),
    connections: intFromEnv("BENCH_CONNECTIONS", 64, 1, 10_000),
    threads: intFromEnv("BENCH_THREADS", 1, 1, 256),
    rounds: intFromEnv("BENCH_ROUNDS", 1, 1, 100),
    logLevel,
    accessLog,
  };
}
export type Settings = ReturnType<typeof readSettings>;

export function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new BenchError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}
