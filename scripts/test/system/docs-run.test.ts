import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type DocBlock,
  type DocCommand,
  fixtureText,
  freePort,
  installDebianPackageIfMissing,
  outputMatches,
  type RanCommand,
  runInShell,
  saysNothing,
  type ShellRun,
  shellBlocksOf,
  startFakeProvider,
  waitFor,
} from "@linkgeo/testing";

/**
 * Docs that run: every shell block of the README and of the pages under
 * docs/ and deploy/ runs here, in bash and in zsh, against a stack started
 * with `bun run start` as the README says, and a command fails the test when
 * it exits non-zero or prints other than the comment under it says
 * (docs/development.md, "Docs that run"). A block marked `no-run` is skipped.
 */

const root = join(import.meta.dir, "../../..");
/** Reading order: the README, then docs/, then deploy/, each alphabetically. */
const pages = ["README.md", ...["docs", "deploy"].flatMap((folder) => [...new Bun.Glob(`${folder}/**/*.md`).scanSync({ cwd: root })].sort())];
const blocks: DocBlock[] = pages.flatMap((page) => shellBlocksOf(page, readFileSync(join(root, page), "utf8")));
/** The pages with a block to run, in the order a person reads them: the README, then docs/ and deploy/ alphabetically. */
const runnablePages = pages.filter((page) => blocks.some((block) => block.page === page && block.runs));

/** What the repository gives a person at its root; the shell's own files (cookie jars, exports) land beside them, not in the repository. */
const rootEntries = ["package.json", "bunfig.toml", "tsconfig.json", "node_modules", "shared", "shortener", "geocoder", "gateway", "scripts"];

/** The geocoder's Nominatim, as the docs show it: every point answered with the Paris fixture. */
const nominatim = startFakeProvider({ otherwise: { ...jsonReply(fixtureText("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json")) } });
afterAll(() => nominatim.close());

function jsonReply(body: string) {
  return { status: 200, body, headers: { "content-type": "application/json; charset=utf-8" } };
}

/** A started `bun run start` in a folder of its own, with the ports the pages' 8080, 3001 and 3002 are rewritten to. */
interface Stack {
  dir: string;
  env: Record<string, string>;
  ports: { gateway: number; shortener: number; geocoder: number };
  stop(): Promise<void>;
}

async function startStack(): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), "docs-run-"));
  for (const entry of rootEntries) symlinkSync(join(root, entry), join(dir, entry));
  // The shell's curl (HOME is this folder) fails on an HTTP error status: an answer of 4xx or 5xx the page does not show is a failure.
  writeFileSync(join(dir, ".curlrc"), "--fail-with-body\n");
  const ports = { gateway: await freePort(), shortener: await freePort(), geocoder: await freePort() };
  // The same variables for the services and the person's shell: `bun run createsuperuser` and `bun run import` reach the stack's database.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    DATABASE_URL: `sqlite://${join(dir, "shortener.db")}`,
    GEOCODER_CACHE_PATH: join(dir, "geocoder-cache.db"),
    NOMINATIM_URL: nominatim.url().href,
    NOMINATIM_USER_AGENT: "my-team-geocoder/1.0 (ops@example.com)",
  };
  const start = Bun.spawn([process.execPath, "run", "start"], {
    cwd: dir,
    env: { ...env, GATEWAY_PORT: String(ports.gateway), SHORTENER_PORT: String(ports.shortener), GEOCODER_PORT: String(ports.geocoder) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const printed: string[] = [];
  for (const stream of [start.stdout, start.stderr]) void new Response(stream).text().then((text) => printed.push(text));
  try {
    await waitFor(
      "the stack's gateway to be ready",
      async () => {
        if (start.exitCode !== null) throw new Error(`bun run start exited (${start.exitCode}):\n${printed.join("\n")}`);
        const response = await fetch(`http://127.0.0.1:${ports.gateway}/ready`).catch(() => null);
        return response?.status === 200;
      },
      30_000,
    );
  } catch (error) {
    // Nothing is left holding ports or files when the stack never came up.
    start.kill("SIGTERM");
    await start.exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    env,
    ports,
    async stop() {
      start.kill("SIGTERM");
      await start.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The repository's files that differ from the last commit or are new (ignored ones aside). */
function repositoryStatus(): string {
  return Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=all"], { cwd: root }).stdout.toString();
}

/** The page's addresses moved to the stack's ports. */
function onStack(text: string, stack: Stack): string {
  const port: Record<string, number> = { "8080": stack.ports.gateway, "3001": stack.ports.shortener, "3002": stack.ports.geocoder };
  return text.replace(/\b(localhost|127\.0\.0\.1):(8080|3001|3002)\b/g, (_, host: string, written: string) => `${host}:${port[written]}`);
}

/** Why a command's run disagrees with its page; undefined when it agrees. */
function disagreement(ran: RanCommand<PageCommand>): string | undefined {
  const { written } = ran.command;
  const problems: string[] = [];
  // What the page shows is the check; a command it shows nothing of must succeed.
  if (written.output !== undefined) {
    if (saysNothing(written.output)) problems.push("the page shows only … under it: a check that cannot fail");
    else if (!outputMatches(ran.command.output!, ran.printed)) problems.push(`the page says it prints\n${indent(written.output)}`);
  } else if (ran.status !== 0) problems.push(`it exited with status ${ran.status}`);
  if (problems.length === 0) return undefined;
  return `line ${written.line}:\n${indent(`$ ${written.text}`)}\n${problems.join("; ")}\nit printed\n${indent(ran.printed.trim() || "(nothing)")}`;
}

function indent(text: string): string {
  return text.replace(/^/gm, "    ");
}

/** A command as the shell runs it (on the stack's ports), with the page it is on and as the page writes it. */
interface PageCommand extends DocCommand {
  page: string;
  written: DocCommand;
}

/** The commands of the runnable pages, in reading order. */
function commandsOnStack(stack: Stack): PageCommand[] {
  return blocks
    .filter((block) => block.runs)
    .flatMap((block) => block.commands.map((command) => ({ ...command, page: block.page })))
    .map((command) => ({
      ...command,
      written: command,
      text: onStack(command.text, stack),
      output: command.output === undefined ? undefined : onStack(command.output, stack),
    }));
}

for (const shell of ["bash", "zsh"] as const) {
  describe(`the docs' shell blocks, run in ${shell}`, () => {
    let stack: Stack;
    let commands: PageCommand[];
    let run: ShellRun<PageCommand>;
    let repositoryBefore: string;
    let repositoryAfter: string;
    beforeAll(async () => {
      repositoryBefore = repositoryStatus();
      installDebianPackageIfMissing("/usr/bin/zsh", "zsh");
      installDebianPackageIfMissing("/usr/bin/jq", "jq");
      stack = await startStack();
      commands = commandsOnStack(stack);
      // One terminal for every page, as a person reads the README, then the pages it links to.
      run = await runInShell(commands, { shell, cwd: stack.dir, env: stack.env, timeoutMs: 150_000 });
      repositoryAfter = repositoryStatus();
    }, 200_000);
    afterAll(() => stack?.stop());

    // The shell stands in a folder of its own, but the service folders are the repository's: a page that `cd`s into one writes there.
    test("the pages leave the repository as they found it", () => {
      expect(repositoryAfter).toBe(repositoryBefore);
    });

    for (const page of runnablePages) {
      test(`${page} runs as written`, () => {
        const problems = run.ran.flatMap((ran) => (ran.command.page === page ? (disagreement(ran) ?? []) : []));
        const notRun = commands.slice(run.ran.length).filter((command) => command.page === page);
        if (run.stopped && notRun.length > 0) {
          const at = run.stopped.during ? `${run.stopped.during.page} line ${run.stopped.during.line}` : "before its first command";
          problems.push(
            `the shell stopped at ${at} (${run.stopped.reason}), so ${notRun.length} command(s) of this page did not run; it printed\n${indent(run.stopped.printed.trim() || "(nothing)")}`,
          );
        }
        expect(problems.map((problem) => `${page} ${problem}`)).toEqual([]);
      });
    }
  });
}
