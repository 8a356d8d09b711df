import { expect, test } from "bun:test";

// Any test file but the first of a run used to get Bun's 5 s default: the
// preload's setDefaultTimeout() reached one file only. The preload now puts
// the call in front of every test file as it is loaded (its plugin); this
// file, wherever it comes in the run, sees the binding that call brought in.
// (It used to sleep 5.5 s to see the timeout itself: 5.5 s of every run.)
test("every test file is loaded with the preload's setDefaultTimeout call in front of it", () => {
  // biome-ignore lint/security/noGlobalEval: a direct eval sees the module's own bindings, which is what is checked.
  const injected = eval("typeof __setDefaultTestTimeout");
  expect(injected).toBe("function");
});
