import { expect, test } from "bun:test";

// Any test file but the first of a run used to get Bun's 5 s default: the
// preload's setDefaultTimeout() reached one file only. This one runs 5.5 s.
test("a test file gets the preload's 30 s default, whichever file runs first", async () => {
  const startedAt = performance.now();
  await Bun.sleep(5_500);
  expect(performance.now() - startedAt).toBeGreaterThanOrEqual(5_500);
});
