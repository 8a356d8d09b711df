import { plugin } from "bun";
import { afterAll } from "bun:test";
import { disposeRunResources } from "./for-the-run.ts";
import { parallelCommandLine, runInstead } from "./parallel-files.ts";
import { stopRunHostAfterTheRun } from "./run-host.ts";
import { defaultTestTimeoutMs } from "./test-timeout.ts";
import { useTestServers } from "./throwaway-servers.ts";

// Postgres and Redis: the ones that answer at TEST_POSTGRES_URL / TEST_REDIS_URL, or throwaway ones for this run
// (throwaway-servers.ts). Before any suite loads, so every `testPostgresAdminUrl` and `testRedisUrl` reads the answer.
// `bun test` emits no "exit" event: an afterAll here runs once, after the last file (after each file under --parallel).
const servers = await useTestServers();

// A plain `bun test` runs its files side by side, one worker per core, each file in a fresh global
// (parallel-files.ts): this process starts that run with the servers above, and ends with its code.
const parallel = parallelCommandLine();
if (parallel) {
  const code = await runInstead(parallel);
  servers?.stop();
  process.exit(code);
}

afterAll(async () => {
  // What files shared (forTheRun, and the run's host: its browser and web stack) goes first: it may still be talking to those servers.
  await disposeRunResources();
  await stopRunHostAfterTheRun();
  await servers?.stop();
});

// Loaded before every suite by bunfig.toml's [test] preload.
//
// Every test gets defaultTestTimeoutMs (test-timeout.ts). bunfig.toml has
// no timeout key, `bun test --timeout` would not be the README's plain
// `bun test`, and setDefaultTimeout() called here reaches only the first test
// file of a run (Bun keeps the default per file). So every test file gets the
// call as it is loaded, in front of its first line, so that the line numbers
// of failures stay those of the file.
plugin({
  name: "default-test-timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
      contents: `import { setDefaultTimeout as __setDefaultTestTimeout } from "bun:test"; __setDefaultTestTimeout(${defaultTestTimeoutMs}); ${await Bun.file(path).text()}`,
      loader: "ts",
    }));
  },
});
