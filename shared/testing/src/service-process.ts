import { allocatorEnv } from "@linkgeo/shared/core";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { waitFor } from "./wait-for.ts";

/** The three services; each runs as `bun run src/main.ts` in its folder. */
export type ServiceName = "shortener" | "geocoder" | "gateway";

/** The repository root: the service folders are beside `shared/`. */
const repositoryRoot = join(import.meta.dir, "..", "..", "..");

export interface ServiceProcess extends AsyncDisposable {
  service: ServiceName;
  /** The name its lines are shown with (`shortener-2`). */
  name: string;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  pid: number;
  /** Sends a signal (SIGTERM by default); does not wait. */
  kill(signal?: NodeJS.Signals): void;
  /** The exit code once the process has ended (128 + n when killed by signal n). */
  exited: Promise<number>;
  /** Everything the process printed so far (stdout and stderr, whole lines), for failure messages. */
  output(): string;
  /** The whole lines printed so far, in the order they were read. */
  lines(): readonly string[];
}

export interface StartServiceOptions {
  /** Shown in front of every line the process prints; default: the service's name. */
  name?: string;
  /** How long to wait for `/ready` to answer 200. */
  readyTimeoutMs?: number;
  /**
   * Which printed lines are passed on to the test's stderr (all by default).
   * Lines not echoed are still kept for `output()` and `lines()`, so a busy
   * access log does not flood the test's output.
   */
  echo?: boolean | ((line: string) => boolean);
  /**
   * The port to listen on, instead of a free one: a service started again
   * where its clients already look for it (a shortener back after an
   * outage, behind the same gateway).
   */
  port?: number;
}

/**
 * What every service gets unless `env` says otherwise: quiet logs, no access
 * log, loopback only, the run's allocator settings. Nothing else leaks in
 * from the test runner's environment.
 */
const quietBase: Record<string, string> = {
  ...allocatorEnv(),
  NODE_ENV: "test",
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  LOG_FORMAT: "pretty",
  ACCESS_LOG: "false",
};

/** What the gateway and the shortener share in every test deployment. */
export const testInternalSecret = "test-internal-secret-at-least-32-characters";

/** Per service, so a test's process starts without warnings it did not ask for. */
const serviceBase: Record<ServiceName, Record<string, string>> = {
  // Without a key the shortener warns and makes a random one per process,
  // so replicas could not read each other's admin sessions.
  shortener: { ELYSIA_SECRET_KEY: "test-secret-key-that-is-at-least-32-characters-long", INTERNAL_SECRET: testInternalSecret },
  geocoder: {},
  // Redirects go to the shortener in batches, as in a default deployment (`INTERNAL_SECRET: ""` turns it off).
  gateway: { INTERNAL_SECRET: testInternalSecret },
};

/**
 * Starts a real service process (`bun run src/main.ts` in its folder) on a
 * free port and resolves once `GET /ready` answers 200. `env` is laid over a
 * quiet base (see `quietBase`); `PORT` is always the chosen port. What the
 * process prints is kept and, by default, passed on to the test's stderr
 * with a `[name:port]` prefix, so a failure is visible.
 *
 * `await using service = await startService(...)` SIGKILLs it at the end of
 * the scope if it is still running.
 */
export async function startService(service: ServiceName, env: Record<string, string>, options: StartServiceOptions = {}): Promise<ServiceProcess> {
  if (options.port !== undefined) return startOnce(service, options.port, env, options);
  // The port is free when freePort looks, but another process may take it
  // before the service binds: start again on a new port in that case.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(service, await freePort(), env, options);
    } catch (error) {
      if (attempt < 3 && error instanceof PortTaken) continue;
      throw error;
    }
  }
}

export interface ServiceSpec {
  service: ServiceName;
  env: Record<string, string>;
  options?: StartServiceOptions;
}

/**
 * Starts several services at once (replicas racing for the same fresh
 * database, say), each added to `stack` as soon as it is up, so none is left
 * running when another one fails to start.
 */
export async function startServicesTogether<const Specs extends readonly ServiceSpec[]>(
  stack: AsyncDisposableStack,
  specs: Specs,
): Promise<{ -readonly [K in keyof Specs]: ServiceProcess }> {
  const results = await Promise.allSettled(specs.map((spec) => startService(spec.service, spec.env, spec.options)));
  for (const result of results) if (result.status === "fulfilled") stack.use(result.value);
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return results.map((result) => (result as PromiseFulfilledResult<ServiceProcess>).value) as { -readonly [K in keyof Specs]: ServiceProcess };
}

class PortTaken extends Error {}

async function startOnce(service: ServiceName, port: number, env: Record<string, string>, options: StartServiceOptions): Promise<ServiceProcess> {
  const name = options.name ?? service;
  const echo = options.echo ?? true;
  const shouldEcho = typeof echo === "function" ? echo : () => echo;
  const child = Bun.spawn([process.execPath, "run", "src/main.ts"], {
    cwd: join(repositoryRoot, service),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      ...quietBase,
      ...serviceBase[service],
      ...env,
      PORT: String(port),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });

  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (shouldEcho(line)) process.stderr.write(`[${name}:${port}] ${line}\n`);
  };
  // Each stream is split into lines on its own, so a line never mixes the two.
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      const split = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = split.pop() ?? "";
      for (const line of split) keep(line);
    }
    if (partial) keep(partial);
  };
  const drained = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const output = () => lines.map((line) => `${line}\n`).join("");

  let ended = false;
  const exited = child.exited.then(async (code) => {
    ended = true;
    await drained; // So `output()` is complete once `exited` resolves.
    return code;
  });

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      `${name} on port ${port} to answer GET /ready with 200`,
      async () => {
        if (ended) {
          const code = await exited;
          if (/EADDRINUSE|address already in use|port .* in use/i.test(output())) throw new PortTaken(`port ${port} was taken`);
          throw new Error(`${name} exited with code ${code} before it was ready; it printed:\n${output()}`);
        }
        const response = await fetch(`${url}/ready`).catch(() => null);
        await response?.arrayBuffer();
        return response?.status === 200;
      },
      options.readyTimeoutMs ?? 20_000,
    );
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    throw error;
  }

  return {
    service,
    name,
    url,
    port,
    pid: child.pid,
    kill: (signal = "SIGTERM") => {
      child.kill(signal);
    },
    exited,
    output,
    lines: () => lines,
    [Symbol.asyncDispose]: async () => {
      if (!ended) child.kill("SIGKILL");
      await exited;
    },
  };
}
