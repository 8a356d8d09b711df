import { startService, startServicesTogether, type ServiceProcess, type StartServiceOptions } from "@linkgeo/testing";

/** A real shortener process; see `startService` in @linkgeo/testing. */
export type ShortenerProcess = ServiceProcess;

export type StartOptions = StartServiceOptions;

/**
 * Starts a real shortener (`bun run src/main.ts`) on a free port and resolves
 * once `GET /ready` answers 200. `env` is laid over a quiet base (LOG_LEVEL=warn,
 * ACCESS_LOG=false, a fixed secret key, HOST=127.0.0.1); nothing else leaks
 * in from the test runner's environment.
 *
 * `await using shortener = await startShortener({...})` SIGKILLs it at the end
 * of the scope if it is still running.
 */
export function startShortener(env: Record<string, string>, options: StartOptions = {}): Promise<ShortenerProcess> {
  return startService("shortener", env, { name: "shortener", ...options });
}

/**
 * Starts several shorteners at once (replicas racing for the same fresh
 * database), each added to `stack` as soon as it is up, so none is left
 * running when another one fails to start.
 */
export function startShortenersTogether(stack: AsyncDisposableStack, names: string[], env: Record<string, string>): Promise<ShortenerProcess[]> {
  return startServicesTogether(
    stack,
    names.map((name) => ({ service: "shortener" as const, env, options: { name } })),
  );
}
