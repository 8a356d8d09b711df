import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { BenchError } from "./lifecycle.ts";

/** Another checkout of this repository to measure beside this tree: its path and commit. */
export interface BaseTree {
  tree: string;
  commit: string;
  /** Its shortener folder, for startShortener's `dir`. */
  shortenerDir: string;
}

/**
 * BENCH_BASE_TREE, checked: a checkout of this repository with its
 * dependencies installed (`git worktree add /tmp/wt-base <commit> && (cd
 * /tmp/wt-base && bun install)`); undefined when the variable is not set.
 */
export function baseTreeFromEnv(): BaseTree | undefined {
  const raw = process.env.BENCH_BASE_TREE;
  if (raw === undefined || raw === "") return undefined;
  const tree = resolve(raw);
  if (!existsSync(join(tree, "shortener", "src", "main.ts")) || !existsSync(join(tree, "node_modules"))) {
    throw new BenchError(`BENCH_BASE_TREE=${raw} is not a checkout of this repository with its dependencies installed (bun install there)`);
  }
  const head = Bun.spawnSync(["git", "-C", tree, "rev-parse", "--short", "HEAD"]);
  return { tree, commit: head.success ? head.stdout.toString().trim() : "unknown commit", shortenerDir: join(tree, "shortener") };
}
