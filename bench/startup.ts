/**
 * How long each service takes from being spawned to answering 200 on
 * /health, as `bun run src/main.ts` in its folder with the defaults a
 * newcomer's `bun run start` has (the shortener on an in-memory SQLite
 * database with analytics on, the geocoder with LOCAL, the gateway in
 * front of addresses nothing listens on). Polled every 2 ms; the median of
 * BENCH_STARTUP_ROUNDS rounds (7 by default).
 *
 * With BENCH_BASE_TREE set to another checkout (its dependencies installed),
 * its services start in the same rounds, alternating with this tree's, and
 * the ratios this tree / base tree are printed:
 *
 *   git worktree add /tmp/wt-base <commit> && (cd /tmp/wt-base && bun install)
 *   BENCH_BASE_TREE=/tmp/wt-base bun run bench:startup
 *
 * Target (issue 28): the shortener at least 30 % faster than before the
 * IP-to-country data was read in place. A report, not a test: it exits 0
 * whether or not a figure reaches its target.
 */
import { join } from "node:path";
import { freePort } from "@linkgeo/testing";
import { baseTreeFromEnv } from "./support/base-tree.ts";
import { spawnChild } from "./support/children.ts";
import { BenchError, runBench } from "./support/lifecycle.ts";
import { describeMachine, median, table } from "./support/report.ts";

const services = ["shortener", "geocoder", "gateway"] as const;
type Service = (typeof services)[number];

async function serviceEnv(service: Service): Promise<Record<string, string>> {
  switch (service) {
    case "shortener":
      return { DATABASE_URL: "sqlite:///:memory:" };
    case "geocoder":
      return { GEOCODER_CACHE_PATH: ":memory:" };
    case "gateway": {
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      return { SHORTENER_URL: nowhere, GEOCODER_URL: nowhere };
    }
  }
}

/** Milliseconds from spawn to the first 200 on /health. */
async function timeToHealth(tree: string, service: Service): Promise<number> {
  const port = await freePort();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), LOG_LEVEL: "error", ...(await serviceEnv(service)) };
  const started = performance.now();
  const child = spawnChild(service, [process.execPath, "run", "src/main.ts"], { cwd: join(tree, service), env });
  try {
    for (;;) {
      if (child.proc.exitCode !== null) throw new BenchError(`${service} in ${tree} exited (${child.proc.exitCode}):\n${child.output()}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return performance.now() - started;
      if (performance.now() - started > 20_000) throw new BenchError(`${service} in ${tree} did not answer /health within 20 s:\n${child.output()}`);
      await Bun.sleep(2);
    }
  } finally {
    await child.stop();
  }
}

async function main(): Promise<number> {
  const rounds = Number(process.env.BENCH_STARTUP_ROUNDS ?? 7);
  const thisTree = join(import.meta.dir, "..");
  const baseTree = baseTreeFromEnv();
  const trees = baseTree ? { tree: thisTree, base: baseTree.tree } : { tree: thisTree };
  const times: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const service of services) {
      // Alternating which tree goes first, so neither always starts on a warmer machine.
      const order = round % 2 === 0 ? Object.entries(trees) : Object.entries(trees).reverse();
      for (const [name, tree] of order) (times[`${name}:${service}`] ??= []).push(await timeToHealth(tree, service));
    }
  }
  console.log(`start-up to /health, median of ${rounds} rounds; ${describeMachine()}${baseTree ? `; base tree ${baseTree.commit}` : ""}\n`);
  const ms = (key: string) => median(times[key]!);
  const rows = services.map((service) => {
    const mine = ms(`tree:${service}`);
    if (!baseTree) return [service, `${mine.toFixed(0)} ms`];
    const base = ms(`base:${service}`);
    return [service, `${mine.toFixed(0)} ms`, `${base.toFixed(0)} ms`, `${(mine / base).toFixed(2)}x`];
  });
  console.log(table([baseTree ? ["service", "this tree", "base tree", "ratio"] : ["service", "this tree"], ...rows]));
  return 0;
}

await runBench(main);
