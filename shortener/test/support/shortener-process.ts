import { join } from "node:path";
import { freePort, waitFor } from "@linkgeo/shared/testing";

/** The shortener package folder: `bun run src/main.ts` runs from here. */
const shortenerDir = join(import.meta.dir, "..", "..");

export interface ShortenerProcess extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  pid: number;
  /** Sends a signal (SIGTERM by default); does not wait. */
  kill(signal?: NodeJS.Signals): void;
  /** The exit code once the process has ended (128 + n when killed by signal n). */
  exited: Promise<number>;
  /** Everything the process printed so far, for failure messages. */
  output(): string;
}

export interface StartOptions {
  /** Shown in front of every line the process prints. */
  name?: string;
  /** How long to wait for `/ready` to answer 200. */
  readyTimeoutMs?: number;
}

/**
 * Starts a real shortener (`bun run src/main.ts`) on a free port and resolves
 * once `GET /ready` answers 200. `env` is laid over a quiet base (LOG_LEVEL=warn,
 * ACCESS_LOG=false, a fixed secret key, HOST=127.0.0.1); nothing else leaks
 * in from the test runner's environment. What the process prints is passed
 * on to the test's stderr with a prefix, so a failure is visible.
 *
 * `await using shortener = await startShortener({...})` SIGKILLs it at the end
 * of the scope if it is still running.
 */
export async function startShortener(env: Record<string, string>, options: StartOptions = {}): Promise<ShortenerProcess> {
  // The port is free when freePort looks, but another process may take it
  // before the shortener binds: start again on a new port in that case.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(await freePort(), env, options);
    } catch (error) {
      if (attempt < 3 && error instanceof PortTaken) continue;
      throw error;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(port: number, env: Record<string, string>, options: StartOptions): Promise<ShortenerProcess> {
  const name = options.name ?? "shortener";
  const child = Bun.spawn([process.execPath, "run", "src/main.ts"], {
    cwd: shortenerDir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      LOG_FORMAT: "pretty",
      ACCESS_LOG: "false",
      ELYSIA_SECRET_KEY: "test-secret-key-that-is-at-least-32-characters-long",
      ...env,
      PORT: String(port),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });

  let printed = "";
  const forward = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      printed += text;
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) process.stderr.write(`[${name}:${port}] ${line}\n`);
    }
    if (partial) process.stderr.write(`[${name}:${port}] ${partial}\n`);
  };
  const drained = Promise.all([forward(child.stdout), forward(child.stderr)]);

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
          if (/EADDRINUSE|address already in use|port .* in use/i.test(printed)) throw new PortTaken(`port ${port} was taken`);
          throw new Error(`${name} exited with code ${code} before it was ready; it printed:\n${printed}`);
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
    url,
    port,
    pid: child.pid,
    kill: (signal = "SIGTERM") => {
      child.kill(signal);
    },
    exited,
    output: () => printed,
    [Symbol.asyncDispose]: async () => {
      if (!ended) child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * Starts several shorteners at once (replicas racing for the same fresh
 * database), each added to `stack` as soon as it is up, so none is left
 * running when another one fails to start.
 */
export async function startShortenersTogether(
  stack: AsyncDisposableStack,
  names: string[],
  env: Record<string, string>,
): Promise<ShortenerProcess[]> {
  const results = await Promise.allSettled(names.map((name) => startShortener(env, { name })));
  for (const result of results) if (result.status === "fulfilled") stack.use(result.value);
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return results.map((result) => (result as PromiseFulfilledResult<ShortenerProcess>).value);
}
