import { plugin } from "bun";

// Loaded before every suite by bunfig.toml's [test] preload.
//
// Suites start real servers, processes and databases, for which Bun's 5 s
// default per test is too short on a loaded 2-core machine. bunfig.toml has
// no timeout key, `bun test --timeout` would not be the README's plain
// `bun test`, and setDefaultTimeout() called here reaches only the first test
// file of a run (Bun keeps the default per file). So every test file gets the
// call as it is loaded, in front of its first line, so that the line numbers
// of failures stay those of the file.
const defaultTestTimeoutMs = 30_000;

plugin({
  name: "default-test-timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
      contents: `import { setDefaultTimeout as __setDefaultTestTimeout } from "bun:test"; __setDefaultTestTimeout(${defaultTestTimeoutMs}); ${await Bun.file(path).text()}`,
      loader: "ts",
    }));
  },
});
