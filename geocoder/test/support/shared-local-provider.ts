import { type LoadedLocalProvider, loadLocalProvider } from "../../src/local/load-local-provider.ts";

let loaded: LoadedLocalProvider | undefined;

/**
 * LOCAL as the service loads it, once per test process: a worker of `bun
 * test --parallel --no-isolate` keeps its modules from file to file, so the
 * files that ask it for LOCAL share one load (1.5-4 s of a core each) instead
 * of each making its own. No test changes the provider: it is read-only data.
 */
export function sharedLocalProvider(): LoadedLocalProvider {
  loaded ??= loadLocalProvider();
  return loaded;
}
