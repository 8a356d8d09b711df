/**
 * The run's host (run-host.ts): `bun run-host-process.ts <run folder> <pid>`.
 * Keeps what test files share for one `bun test` run and ends it, and
 * itself, when the process `pid` has exited or is told to stop. Started
 * detached by the first file that asks; it prints into the run folder's log.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Hosted, HostedStart } from "./run-host.ts";

const [runDir, ownerPid] = [process.argv[2]!, Number(process.argv[3])];

/** Each start by its module and export: asked twice at once, started once. */
const kept = new Map<string, Promise<Hosted<unknown>>>();

async function keep({ module, exportName }: HostedStart): Promise<unknown> {
  const key = `${module}#${exportName}`;
  const current = await kept.get(key)?.catch(() => undefined);
  if (current?.usable()) return current.description;
  if (current) await Promise.resolve(current[Symbol.asyncDispose]()).catch(() => {});
  const starting = (async () => {
    const start = (await import(module))[exportName] as () => Promise<Hosted<unknown>>;
    if (typeof start !== "function") throw new Error(`${module} exports no function ${exportName}`);
    return start();
  })();
  kept.set(key, starting);
  return (await starting).description;
}

let stopping: Promise<never> | undefined;
function stop(): Promise<never> {
  stopping ??= (async () => {
    await Promise.all(
      [...kept.values()].map(async (starting) => {
        const value = await starting.catch(() => undefined);
        await Promise.resolve(value?.[Symbol.asyncDispose]()).catch(() => {});
      }),
    );
    rmSync(runDir, { recursive: true, force: true });
    process.exit(0);
  })();
  return stopping;
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  // A browser or a stack may take longer to start than Bun's default idle timeout.
  idleTimeout: 0,
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (request.method === "POST" && pathname === "/hosted") {
      try {
        return Response.json(await keep((await request.json()) as HostedStart));
      } catch (error) {
        console.error(error);
        return new Response(error instanceof Error ? (error.stack ?? error.message) : String(error), { status: 500 });
      }
    }
    if (request.method === "POST" && pathname === "/stop") {
      setTimeout(stop);
      return new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  },
});

// Written whole, then renamed into place: an asker never reads half a port.
writeFileSync(join(runDir, "port.new"), String(server.port));
renameSync(join(runDir, "port.new"), join(runDir, "port"));

// The run has ended when its process has: checked often, so nothing it kept outlives it by more than a moment.
setInterval(() => {
  try {
    process.kill(ownerPid, 0);
  } catch {
    void stop();
  }
}, 200);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop());
// What one kept thing throws by itself (a service's stream, a browser's socket) is logged, and the host serves on:
// every later file of the run depends on it, and a crashed browser or stack is started again on the next ask.
process.on("uncaughtException", (error) => console.error("run host:", error));
process.on("unhandledRejection", (error) => console.error("run host:", error));
