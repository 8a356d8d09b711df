import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import { freePort, hostedForTheRun, startService, type ServiceProcess } from "@linkgeo/testing";
import { browserSetupTimeoutMs } from "@linkgeo/testing/offline-browser";
import { launchWebBrowser, type WebBrowser } from "./web-browser.ts";
import { type SharedWebStack, startWebStack, type WebStack, type WebStackOptions } from "../../support/web-stack.ts";

/** Something started before a file's tests and disposed after them, read through a getter in the tests. */
function forTheFile<T extends AsyncDisposable>(start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await started?.[Symbol.asyncDispose]();
  });
  return () => started!;
}

/**
 * The three services (startWebStack) and a browser for the tests of one
 * file: started before them, stopped after. Read `stack` and `browser` in
 * the tests, not at the top of the file. For a file whose checks need a
 * database of its own (the admin's tables list every link and every key),
 * other settings, or a service it ends; the others take `useSharedWebStack`.
 */
export function useWebStack(options: WebStackOptions = {}): { readonly stack: WebStack; readonly browser: WebBrowser } {
  return withBrowser(forTheFile(() => startWebStack(options)));
}

/**
 * The run's one web stack (`hostedWebStack`, shared by every file of the
 * run in every process, ended after the last) and a browser for the tests
 * of one file. Its database holds the links, keys and sessions the files
 * before made, or other files make at the same time under `--parallel`: a
 * file that takes it finds its own by what it made (a code, a token, a
 * profile's list), never by counting what is there.
 */
export function useSharedWebStack(): { readonly stack: SharedWebStack; readonly browser: WebBrowser } {
  let stack: SharedWebStack | undefined;
  beforeAll(async () => {
    stack = await sharedWebStack();
  }, browserSetupTimeoutMs);
  return withBrowser(() => stack!);
}

const sharedWebStack = hostedForTheRun<SharedWebStack>({ module: join(import.meta.dir, "../../support/web-stack.ts"), exportName: "hostedWebStack" });

function withBrowser<Stack>(stack: () => Stack): { readonly stack: Stack; readonly browser: WebBrowser } {
  const browser = forTheFile(launchWebBrowser);
  return {
    get stack() {
      return stack();
    },
    get browser() {
      return browser();
    },
  };
}

/**
 * The gateway alone, its shortener and geocoder on a port nothing listens
 * on (every page is the gateway's own; the pages' API calls answer 502),
 * redirects proxied one by one, and a browser: for a file that tests the
 * pages' frame and not the services.
 */
export function useLoneGateway(): { readonly gateway: ServiceProcess; readonly browser: WebBrowser } {
  const gateway = forTheFile(async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    return startService("gateway", { SHORTENER_URL: nowhere, GEOCODER_URL: nowhere, INTERNAL_SECRET: "" });
  });
  const browser = forTheFile(launchWebBrowser);
  return {
    get gateway() {
      return gateway();
    },
    get browser() {
      return browser();
    },
  };
}
