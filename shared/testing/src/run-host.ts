import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "./wait-for.ts";

/**
 * What a module hands the run's host to keep: a description a test file in
 * any process can use (a URL, a browser's endpoint: JSON), whether it can
 * still serve (a crashed browser cannot: the next ask starts another), and
 * how to end it after the run.
 */
export interface Hosted<Description> extends AsyncDisposable {
  description: Description;
  usable(): boolean;
}

/** A module's export that starts something for the run's host: `(): Promise<Hosted<Description>>`. */
export interface HostedStart {
  /** The module's path or URL (`import.meta.resolve("./x.ts")`). */
  module: string;
  /** The name of its exported start function. */
  exportName: string;
}

/**
 * The `bun test` process a run belongs to: the coordinator under
 * `--parallel` (each worker's parent; workers have BUN_TEST_WORKER_ID), the
 * process itself otherwise. Its start time goes with its pid, so a reused
 * pid is another run.
 */
function runOwner(): { pid: number; key: string } {
  const pid = process.env.BUN_TEST_WORKER_ID ? process.ppid : process.pid;
  let started = "0";
  try {
    // /proc/<pid>/stat: the 22nd field is the start time; the 2nd, the name in parentheses, may hold spaces.
    started = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]!;
  } catch {}
  return { pid, key: `${pid}-${started}` };
}

const owner = runOwner();
const runDir = join(tmpdir(), `linkgeo-test-run-${owner.key}`);
const portFile = join(runDir, "port");
/** What the host and the services it starts print: read when a start fails. */
export const runHostLog = join(runDir, "host.log");

/** How long the first ask waits for the host to start listening (it starts in well under a second). */
const hostStartMs = 30_000;

let hostUrl: Promise<string> | undefined;

/**
 * The run's host: one process for the whole `bun test` run, started by the
 * first file to ask (whichever worker it runs in), which keeps what test
 * files share (one Chromium, one web stack) and ends it when the run ends.
 * Creating the run's folder is the claim, so two workers asking at once
 * start one host.
 */
function runHost(): Promise<string> {
  hostUrl ??= (async () => {
    let claimed = false;
    try {
      mkdirSync(runDir);
      claimed = true;
    } catch {}
    if (claimed) {
      const log = openSync(runHostLog, "a");
      const { BUN_TEST_WORKER_ID, JEST_WORKER_ID, ...env } = process.env;
      // Started by a shell that exits at once, so the host is no file's child: `bun test` ends what a
      // file started when the file ends (under --parallel), and the host must outlive every file.
      const shell = Bun.spawn(
        ["/bin/sh", "-c", '"$@" &', "run-host", process.execPath, join(import.meta.dir, "run-host-process.ts"), runDir, String(owner.pid)],
        {
          stdin: "ignore",
          stdout: log,
          stderr: log,
          env,
          // Its own process group: a test that signals its own group does not reach the run's browser.
          detached: true,
        },
      );
      await shell.exited;
      closeSync(log);
    }
    await waitFor("the run's host to listen", () => readPort() !== undefined, hostStartMs).catch(() => {
      throw new Error(`the run's host did not start; its log:\n${logTail()}`);
    });
    return `http://127.0.0.1:${readPort()}`;
  })();
  return hostUrl;
}

function readPort(): number | undefined {
  try {
    return Number(readFileSync(portFile, "utf8")) || undefined;
  } catch {
    return undefined;
  }
}

function logTail(): string {
  try {
    return readFileSync(runHostLog, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Something started once per run by the run's host and described to every
 * test file that asks, in whatever process it runs (`bun test --parallel`
 * runs files in several): the first ask starts it, later asks get the same
 * one while it is usable. The host ends it after the last file.
 */
export function hostedForTheRun<Description>(start: HostedStart): () => Promise<Description> {
  return async () => {
    const url = await runHost();
    const response = await fetch(`${url}/hosted`, { method: "POST", body: JSON.stringify(start) });
    if (!response.ok) throw new Error(`the run's host could not start ${start.exportName}: ${await response.text()}\nits log:\n${logTail()}`);
    return (await response.json()) as Description;
  };
}

/**
 * Ends the run's host and what it keeps, when this process is the run
 * (a plain `bun test`, after its last file: the preload calls it). Under
 * `--parallel` a worker's last file is not the run's: the host ends by
 * itself once the coordinator has exited.
 */
export async function stopRunHostAfterTheRun(): Promise<void> {
  if (process.env.BUN_TEST_WORKER_ID || hostUrl === undefined) return;
  const url = await hostUrl.catch(() => undefined);
  if (url) await fetch(`${url}/stop`, { method: "POST" }).catch(() => {});
}
