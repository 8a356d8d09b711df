import { allocatorEnv } from "@linkgeo/shared/core";
import { readFileSync } from "node:fs";

/**
 * The `bun test` command line this process was started with, when it should
 * run its files side by side instead: `--parallel`, one worker per core, and
 * `--no-isolate`, each worker keeping its modules from file to file as one
 * plain `bun test` process does (a fresh global per file reloads the same
 * modules: the suites outside system/ and browser/ took 67-76 s so, 55 s
 * without),
 * else undefined: under --parallel already (the preload then runs in a
 * worker), in watch mode, or with LINKGEO_TEST_SERIAL=1 (one process, for a
 * debugger or a leak hunt). bunfig.toml has no key for it, and the README's
 * command is the plain `bun test`.
 */
export function parallelCommandLine(args: readonly string[] = thisCommandLine(), env: Record<string, string | undefined> = process.env): string[] | undefined {
  if (env.BUN_TEST_WORKER_ID || env.LINKGEO_TEST_SERIAL === "1") return undefined;
  const testAt = args.indexOf("test");
  if (testAt < 0) return undefined;
  const rest = args.slice(testAt + 1);
  if (rest.some((arg) => /^--(parallel|watch|test-worker|isolate|no-isolate|shard)\b/.test(arg))) return undefined;
  return [process.execPath, "test", "--parallel", "--no-isolate", ...rest];
}

/** The command line this process was started with (`process.argv` of a `bun test` names the test file instead). */
function thisCommandLine(): string[] {
  try {
    return readFileSync("/proc/self/cmdline", "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Runs `commandLine` (a `bun test --parallel`) in this process's place, with
 * its terminal and its environment (the run's Postgres and Redis, which the
 * preload may have just started) with the run's allocator settings
 * (`allocatorEnv`), and answers with its exit code.
 */
export async function runInstead(commandLine: string[]): Promise<number> {
  // Ctrl-C reaches both, as they share the terminal's process group.
  return Bun.spawn(commandLine, { stdio: ["inherit", "inherit", "inherit"], env: { ...process.env, ...allocatorEnv() } }).exited;
}
