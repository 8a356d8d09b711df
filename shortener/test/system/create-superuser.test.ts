import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, silentLogger } from "@linkgeo/shared";
import { installDebianPackageIfMissing, waitFor } from "@linkgeo/testing";
import { createSuperuser } from "../../src/admins/superuser-creation.ts";
import {
  parseSuperuserArgs,
  passwordProblem,
  resolveSuperuser,
  SuperuserError,
  usernameProblem,
  type ResolvedSuperuser,
  type SuperuserFlags,
  type SuperuserSources,
} from "../../src/admins/superuser-input.ts";
import { askForSuperuser } from "../../src/admins/superuser-prompt.ts";
import { createApp } from "../../src/app.ts";
import { readSuperuserCommandConfig } from "../../src/config.ts";
import { AdminTokens } from "../../src/auth/admin-tokens.ts";
import { MemoryLinkCache } from "../../src/cache/memory-link-cache.ts";
import { openDatabase, type Database } from "../../src/storage/open-database.ts";
import { VisitCounter } from "../../src/visits/visit-counter.ts";
import { OrphanVisits } from "../../src/visits/orphan-visits.ts";
import { ApiKeys } from "../../src/auth/api-keys.ts";

// Each end-to-end case starts Bun and hashes with argon2id; bun test's 5 s
// default is tight on a slow machine (bunfig.toml's [test] timeout is not applied).
setDefaultTimeout(20_000);

const shortenerDir = resolve(import.meta.dir, "../..");
const t0 = new Date("2026-11-22T07:09:09.291Z");
const noFlags: SuperuserFlags = { passwordStdin: false, noInput: false, help: false };
const missingUsername = "the username (--username or SUPERUSER_USERNAME)";
const missingPassword = "the password (--password, --password-stdin or SUPERUSER_PASSWORD)";

describe("parseSuperuserArgs", () => {
  // Written as a command line for readable test names; no value here contains a space.
  const argvOf = (cli: string) => cli.split(" ").filter(Boolean);

  test.each([
    { cli: "", flags: noFlags },
    { cli: "--username alice --password secret123", flags: { ...noFlags, username: "alice", password: "secret123" } },
    { cli: "--username=alice --password=--odd=pass", flags: { ...noFlags, username: "alice", password: "--odd=pass" } },
    { cli: "--password=-starts-with-dash", flags: { ...noFlags, password: "-starts-with-dash" } },
    { cli: "--username alice --password-stdin --no-input", flags: { ...noFlags, username: "alice", passwordStdin: true, noInput: true } },
    { cli: "-h", flags: { ...noFlags, help: true } },
    { cli: "--help", flags: { ...noFlags, help: true } },
  ])("parses '$cli'", ({ cli, flags }) => {
    expect(parseSuperuserArgs(argvOf(cli))).toEqual(flags);
  });

  test.each([
    { cli: "--username", message: "Option '--username <value>' argument missing (see --help)" },
    {
      cli: "--username --no-input",
      message:
        "Option '--username' argument is ambiguous. Did you forget to specify the option argument for '--username'? To specify an option argument starting with a dash use '--username=-XYZ'. (see --help)",
    },
    { cli: "--password", message: "Option '--password <value>' argument missing (see --help)" },
    { cli: "--bogus", message: "Unknown option '--bogus' (see --help)" },
    { cli: "--bogus=1", message: "Unknown option '--bogus' (see --help)" },
    { cli: "--no-input=yes", message: "Option '--no-input' does not take an argument (see --help)" },
    { cli: "alice", message: "Unexpected argument 'alice'. This command does not take positional arguments (see --help)" },
    { cli: "--password secret123 --password-stdin", message: "use --password or --password-stdin, not both" },
  ])("refuses '$cli'", ({ cli, message }) => {
    expect(() => parseSuperuserArgs(argvOf(cli))).toThrow(new SuperuserError(message));
  });
});

describe("readSuperuserCommandConfig", () => {
  test.each([
    { name: "defaults to the service's SQLite file", env: {}, expected: { database: { engine: "sqlite", path: join(shortenerDir, "data/shortener.db") } } },
    {
      name: "reads an absolute sqlite path (four slashes)",
      env: { DATABASE_URL: "sqlite:////tmp/admins.db" },
      expected: { database: { engine: "sqlite", path: "/tmp/admins.db" } },
    },
    {
      name: "reads a postgres URL",
      env: { DATABASE_URL: "postgres://u:p@db:5432/app" },
      expected: { database: { engine: "postgres", url: "postgres://u:p@db:5432/app" } },
    },
    {
      name: "trims the username but keeps spaces in the password",
      env: { SUPERUSER_USERNAME: " alice ", SUPERUSER_PASSWORD: " pass word " },
      expected: { database: { engine: "sqlite", path: join(shortenerDir, "data/shortener.db") }, username: "alice", password: " pass word " },
    },
    {
      name: "treats blank values as absent",
      env: { SUPERUSER_USERNAME: "  ", SUPERUSER_PASSWORD: "" },
      expected: { database: { engine: "sqlite", path: join(shortenerDir, "data/shortener.db") } },
    },
  ])("$name", ({ env, expected }) => {
    expect(readSuperuserCommandConfig(env)).toEqual(expected);
  });

  test("reports a bad DATABASE_URL as the service does", () => {
    const thrown = (() => {
      try {
        readSuperuserCommandConfig({ DATABASE_URL: "mysql://db/app" });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems).toEqual(["DATABASE_URL must be postgres://user:pass@host:port/db or sqlite:///path/file.db"]);
  });
});

describe("usernameProblem", () => {
  test.each([
    { name: "a", username: "a" },
    { name: "alice", username: "alice" },
    { name: "Alice_1", username: "Alice_1" },
    { name: "a.b+c@d-e_f", username: "a.b+c@d-e_f" },
    { name: "150 characters", username: "x".repeat(150) },
  ])("accepts $name", ({ username }) => {
    expect(usernameProblem(username)).toBeNull();
  });

  test.each([
    { name: "an empty name", username: "", problem: "the username must not be empty" },
    { name: "151 characters", username: "x".repeat(151), problem: "the username must be at most 150 characters (got 151)" },
    { name: "a space", username: "al ice", problem: 'the username may only contain letters, digits and @ . + - _ (got "al ice")' },
    { name: "a non-ASCII letter", username: "alïce", problem: 'the username may only contain letters, digits and @ . + - _ (got "alïce")' },
    { name: "a slash", username: "a/b", problem: 'the username may only contain letters, digits and @ . + - _ (got "a/b")' },
  ])("refuses $name", ({ username, problem }) => {
    expect(usernameProblem(username)).toBe(problem);
  });
});

describe("passwordProblem", () => {
  test.each([
    { name: "8 characters", password: "12345678", problem: null },
    { name: "7 characters", password: "1234567", problem: "the password must be at least 8 characters" },
    { name: "8 emoji (16 UTF-16 units)", password: "🔑".repeat(8), problem: null },
    { name: "7 emoji (14 UTF-16 units)", password: "🔑".repeat(7), problem: "the password must be at least 8 characters" },
    { name: "1024 characters, the login route's limit", password: "x".repeat(1024), problem: null },
    { name: "1025 characters", password: "x".repeat(1025), problem: "the password must be at most 1024 characters" },
  ])("$name", ({ password, problem }) => {
    expect(passwordProblem(password)).toBe(problem);
  });
});

describe("resolveSuperuser", () => {
  const sources = (overrides: Partial<SuperuserSources>): SuperuserSources => ({ flags: noFlags, env: {}, stdinIsTTY: false, ...overrides });

  test.each<{ name: string; sources: SuperuserSources; resolved: ResolvedSuperuser }>([
    {
      name: "takes both values from flags",
      sources: sources({ flags: { ...noFlags, username: "alice", password: "secret123" } }),
      resolved: { username: "alice", password: "secret123" },
    },
    {
      name: "takes both values from the environment",
      sources: sources({ env: { username: "alice", password: "secret123" } }),
      resolved: { username: "alice", password: "secret123" },
    },
    {
      name: "prefers flags to the environment",
      sources: sources({ flags: { ...noFlags, username: "bob", password: "flagpass1" }, env: { username: "alice", password: "envpass12" } }),
      resolved: { username: "bob", password: "flagpass1" },
    },
    {
      name: "mixes a flag with the environment",
      sources: sources({ flags: { ...noFlags, username: "bob" }, env: { password: "envpass12" } }),
      resolved: { username: "bob", password: "envpass12" },
    },
    {
      name: "drops one trailing newline from stdin",
      sources: sources({ flags: { ...noFlags, username: "alice", passwordStdin: true }, stdin: "secret123\n" }),
      resolved: { username: "alice", password: "secret123" },
    },
    {
      name: "drops a trailing CRLF from stdin but keeps other spaces",
      sources: sources({ flags: { ...noFlags, username: "alice", passwordStdin: true }, stdin: " pass word \r\n" }),
      resolved: { username: "alice", password: " pass word " },
    },
    {
      name: "prefers stdin to SUPERUSER_PASSWORD",
      sources: sources({ flags: { ...noFlags, username: "alice", passwordStdin: true }, stdin: "fromstdin", env: { password: "fromenv12" } }),
      resolved: { username: "alice", password: "fromstdin" },
    },
    {
      name: "leaves everything to the prompts on a terminal",
      sources: sources({ stdinIsTTY: true }),
      resolved: { username: undefined, password: undefined },
    },
    {
      name: "leaves only the password to the prompts when the username is given",
      sources: sources({ flags: { ...noFlags, username: "alice" }, stdinIsTTY: true }),
      resolved: { username: "alice", password: undefined },
    },
  ])("$name", ({ sources, resolved }) => {
    expect(resolveSuperuser(sources)).toEqual(resolved);
  });

  test.each<{ name: string; sources: SuperuserSources; message: string }>([
    {
      name: "names both missing values when stdin is not a terminal",
      sources: sources({}),
      message: `missing ${missingUsername} and ${missingPassword}; cannot prompt: stdin is not a terminal`,
    },
    {
      name: "does not prompt with --no-input, even on a terminal",
      sources: sources({ flags: { ...noFlags, username: "alice", noInput: true }, stdinIsTTY: true }),
      message: `missing ${missingPassword}; cannot prompt: --no-input was given`,
    },
    {
      name: "does not prompt when stdin holds the password",
      sources: sources({ flags: { ...noFlags, passwordStdin: true }, stdin: "secret123\n", stdinIsTTY: true }),
      message: `missing ${missingUsername}; cannot prompt: stdin holds the password`,
    },
    {
      name: "refuses a given invalid username even when it could prompt",
      sources: sources({ flags: { ...noFlags, username: "al ice" }, stdinIsTTY: true }),
      message: 'the username may only contain letters, digits and @ . + - _ (got "al ice")',
    },
    {
      name: "refuses a short password from the environment",
      sources: sources({ env: { username: "alice", password: "short" } }),
      message: "the password must be at least 8 characters",
    },
    {
      name: "refuses an empty stdin",
      sources: sources({ flags: { ...noFlags, username: "alice", passwordStdin: true }, stdin: "" }),
      message: "the password must be at least 8 characters",
    },
  ])("$name", ({ sources, message }) => {
    expect(() => resolveSuperuser(sources)).toThrow(new SuperuserError(message));
  });
});

describe("createSuperuser", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ engine: "sqlite", path: ":memory:" });
  });
  afterAll(() => database.close());

  test("stores an argon2id hash of the password and the clock's time", async () => {
    const admin = await createSuperuser(database.admins, () => t0, { username: "alice", password: "secret123" });
    expect(await database.admins.find("alice")).toEqual(admin);
    expect(admin).toEqual({ username: "alice", passwordHash: expect.stringMatching(/^\$argon2id\$/), createdAt: t0 });
    expect(await Bun.password.verify("secret123", admin.passwordHash)).toBe(true);
    expect(await Bun.password.verify("secret124", admin.passwordHash)).toBe(false);
  });

  test("refuses a taken username and keeps the first admin", async () => {
    const first = await createSuperuser(database.admins, () => t0, { username: "taken", password: "secret123" });
    await expect(createSuperuser(database.admins, () => t0, { username: "taken", password: "other1234" })).rejects.toThrow(
      new SuperuserError('the username "taken" is already taken'),
    );
    expect(await database.admins.find("taken")).toEqual(first);
  });

  test.each([
    { username: "bad name", password: "secret123" },
    { username: "bob", password: "short" },
  ])("refuses $username / $password and stores nothing (the rules hold without the CLI)", async ({ username, password }) => {
    await expect(createSuperuser(database.admins, () => t0, { username, password })).rejects.toThrow(SuperuserError);
    expect(await database.admins.find(username)).toBeNull();
  });
});

describe("askForSuperuser", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ engine: "sqlite", path: ":memory:" });
    await createSuperuser(database.admins, () => t0, { username: "taken", password: "secret123" });
  });
  afterAll(() => database.close());

  /** Plays the user: answers questions in order and records the transcript. */
  function scripted(answers: string[]) {
    const transcript: string[] = [];
    const dialogue = {
      ask: async (question: string, { echo }: { echo: boolean }) => {
        const answer = answers.shift();
        if (answer === undefined) throw new Error(`no answer left for ${question}`);
        transcript.push(`${question}${echo ? answer : "<hidden>"}`);
        return answer;
      },
      warn: (line: string) => transcript.push(line),
      isTaken: async (username: string) => (await database.admins.find(username)) !== null,
    };
    return { dialogue, transcript };
  }

  test.each<{ name: string; given: ResolvedSuperuser; answers: string[]; transcript: string[]; result: { username: string; password: string } }>([
    {
      name: "asks for both, the password twice, hiding it",
      given: {},
      answers: [" alice ", "secret123", "secret123"],
      transcript: ["Username:  alice ", "Password: <hidden>", "Password (again): <hidden>"],
      result: { username: "alice", password: "secret123" },
    },
    {
      name: "asks only for what is missing",
      given: { username: "alice" },
      answers: ["secret123", "secret123"],
      transcript: ["Password: <hidden>", "Password (again): <hidden>"],
      result: { username: "alice", password: "secret123" },
    },
    {
      name: "asks again after an invalid or taken username",
      given: { password: "secret123" },
      answers: ["", "bad name", "taken", "bob"],
      transcript: [
        "Username: ",
        "Error: the username must not be empty.",
        "Username: bad name",
        'Error: the username may only contain letters, digits and @ . + - _ (got "bad name").',
        "Username: taken",
        'Error: the username "taken" is already taken.',
        "Username: bob",
      ],
      result: { username: "bob", password: "secret123" },
    },
    {
      name: "asks again after a short or mismatched password",
      given: { username: "alice" },
      answers: ["short", "secret123", "secret124", "secret123", "secret123"],
      transcript: [
        "Password: <hidden>",
        "Error: the password must be at least 8 characters.",
        "Password: <hidden>",
        "Password (again): <hidden>",
        "Error: the passwords do not match.",
        "Password: <hidden>",
        "Password (again): <hidden>",
      ],
      result: { username: "alice", password: "secret123" },
    },
  ])("$name", async ({ given, answers, transcript, result }) => {
    const user = scripted(answers);
    expect(await askForSuperuser(given, user.dialogue)).toEqual(result);
    expect(user.transcript).toEqual(transcript);
  });

  test("fails before asking for a password when the given username is taken", async () => {
    const user = scripted([]);
    await expect(askForSuperuser({ username: "taken" }, user.dialogue)).rejects.toThrow(new SuperuserError('the username "taken" is already taken'));
    expect(user.transcript).toEqual([]);
  });
});

// ---- The command itself, as an operator runs it ----

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A clean environment: the developer's own DATABASE_URL or SUPERUSER_* must not leak in. */
function commandEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...extra };
}

// `--silent`: without it `bun run` echoes the script's command line (password
// included) and adds its own "exited with code 1" line to stderr.
const command = [process.execPath, "run", "--silent", "createsuperuser"];

async function runCommand(args: readonly string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  const child = Bun.spawn([...command, ...args], {
    cwd: shortenerDir,
    env: commandEnv(env),
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [exitCode, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { exitCode, stdout, stderr };
}

// End to end on SQLite only: the admin store suite covers both engines.
const engines = [
  {
    engine: "sqlite",
    setUp: async () => {
      const dir = mkdtempSync(join(tmpdir(), "createsuperuser-"));
      // sqlite:/// followed by an absolute path: four slashes.
      return { url: `sqlite:///${join(dir, "shortener.db")}`, tearDown: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
] as const;

describe.each(engines)("bun run createsuperuser on $engine", ({ setUp }) => {
  let url: string;
  let tearDown: () => Promise<void>;
  // Opened only after the first run, so that run proves the command applies the migrations itself.
  let database: Database | undefined;
  const db = async () => (database ??= await openDatabase(readSuperuserCommandConfig({ DATABASE_URL: url }).database));

  beforeAll(async () => {
    ({ url, tearDown } = await setUp());
    expect(url).toStartWith("sqlite:////");
  });
  afterAll(async () => {
    await database?.close();
    await tearDown();
  });

  test("creates the admin from flags in a fresh database", async () => {
    const before = Date.now();
    const run = await runCommand(["--username", "alice", "--password", "correct horse"], { DATABASE_URL: url });
    expect(run).toEqual({ exitCode: 0, stdout: "Superuser alice created.\n", stderr: "" });

    const admin = await (await db()).admins.find("alice");
    expect(admin).toEqual({ username: "alice", passwordHash: expect.stringMatching(/^\$argon2id\$/), createdAt: expect.any(Date) });
    expect(await Bun.password.verify("correct horse", admin!.passwordHash)).toBe(true);
    expect(admin!.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(admin!.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("refuses a taken username with one line and keeps the first admin", async () => {
    const first = await (await db()).admins.find("alice");
    const run = await runCommand(["--username", "alice", "--password", "another password"], { DATABASE_URL: url });
    expect(run).toEqual({ exitCode: 1, stdout: "", stderr: 'createsuperuser: the username "alice" is already taken\n' });
    expect(await (await db()).admins.find("alice")).toEqual(first!);
  });

  test("refuses a short password and stores nothing", async () => {
    const run = await runCommand(["--username", "shorty", "--password", "1234567"], { DATABASE_URL: url });
    expect(run).toEqual({ exitCode: 1, stdout: "", stderr: "createsuperuser: the password must be at least 8 characters\n" });
    expect(await (await db()).admins.find("shorty")).toBeNull();
  });

  test("reads the password from stdin with --password-stdin", async () => {
    const run = await runCommand(["--username", "carol", "--password-stdin"], { DATABASE_URL: url }, "from stdin 123\n");
    expect(run).toEqual({ exitCode: 0, stdout: "Superuser carol created.\n", stderr: "" });
    expect(await Bun.password.verify("from stdin 123", (await (await db()).admins.find("carol"))!.passwordHash)).toBe(true);
  });

  test("takes SUPERUSER_USERNAME and SUPERUSER_PASSWORD when flags are absent", async () => {
    const run = await runCommand([], { DATABASE_URL: url, SUPERUSER_USERNAME: "dave", SUPERUSER_PASSWORD: "env password" });
    expect(run).toEqual({ exitCode: 0, stdout: "Superuser dave created.\n", stderr: "" });
    expect(await Bun.password.verify("env password", (await (await db()).admins.find("dave"))!.passwordHash)).toBe(true);
  });

  test("names what is missing with --no-input", async () => {
    const run = await runCommand(["--no-input", "--username", "erin"], { DATABASE_URL: url });
    expect(run).toEqual({ exitCode: 1, stdout: "", stderr: `createsuperuser: missing ${missingPassword}; cannot prompt: --no-input was given\n` });
    expect(await (await db()).admins.find("erin")).toBeNull();
  });

  test("the admin it created can log in, and a wrong password cannot", async () => {
    const database = await db();
    const secretKey = "a fixed test secret key, 32+ characters long";
    const clock = () => t0;
    const app = createApp({
      links: database.links,
      admins: database.admins,
      sessions: database.sessions,
      visitStore: database.visits,
      cache: new MemoryLinkCache(),
      visits: new VisitCounter(database.links, clock),
      orphans: new OrphanVisits({ store: database.orphans, clock, log: silentLogger }),
      orphanStore: database.orphans,
      apiKeys: new ApiKeys({ store: database.apiKeys, clock, log: silentLogger }),
      domainStore: database.domains,
      allowStore: database.allowList,
      reportStore: database.reports,
      peopleStore: database.people,
      workspaceStore: database.workspaces,
      auditStore: database.audit,
      clock,
      log: silentLogger,
      secretKey,
      readiness: { required: {} },
    });
    const login = (password: string) =>
      app.handle(
        new Request("http://localhost/admin/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "alice", password }),
        }),
      );

    const ok = await login("correct horse");
    expect(ok.status).toBe(200);
    const session = (await ok.json()) as { token: string; expires_at: string };
    expect(session).toEqual({ token: expect.any(String), expires_at: new Date(t0.getTime() + 12 * 60 * 60 * 1000).toISOString() });
    expect(new AdminTokens(secretKey, clock).verify(session.token)).toBe("alice");

    const wrong = await login("wrong horse");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: "unauthorized", message: "invalid username or password" } });
  });
});

// Each case is a process of its own with no database: they run side by side.
describe.concurrent("bun run createsuperuser without a database", () => {
  test.each<{ name: string; args: string[]; env: Record<string, string>; stderr: string }>([
    { name: "an unknown option", args: ["--bogus"], env: {}, stderr: "createsuperuser: Unknown option '--bogus' (see --help)\n" },
    {
      name: "a bad DATABASE_URL",
      args: ["--username", "alice", "--password", "secret123"],
      env: { DATABASE_URL: "mysql://db/app" },
      stderr: "createsuperuser: DATABASE_URL must be postgres://user:pass@host:port/db or sqlite:///path/file.db\n",
    },
    {
      name: "missing values when stdin is not a terminal",
      args: [],
      env: { DATABASE_URL: "sqlite:///:memory:" },
      stderr: `createsuperuser: missing ${missingUsername} and ${missingPassword}; cannot prompt: stdin is not a terminal\n`,
    },
  ])("fails with one line for $name", async ({ args, env, stderr }) => {
    expect(await runCommand(args, env)).toEqual({ exitCode: 1, stdout: "", stderr });
  });

  test("fails with one line when Postgres cannot be reached", async () => {
    const run = await runCommand(["--username", "alice", "--password", "secret123"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" });
    expect(run).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: expect.stringMatching(/^createsuperuser: cannot open the database, DATABASE_URL=postgres:\/\/[^ ]*127\.0\.0\.1:1\/[^ ]*: .*ECONNREFUSED.*\n$/),
    });
    expect(run.stderr.split("\n")).toHaveLength(2);
  });

  test("--help prints the usage", async () => {
    const run = await runCommand(["--help"], {});
    expect(run).toEqual({ exitCode: 0, stdout: expect.stringMatching(/^Usage: bun run createsuperuser /), stderr: "" });
    // The default database is the service's own, as its config reads it: in its folder, wherever the command runs.
    expect(run.stdout).toContain(`Creates an admin in the database named by DATABASE_URL (default sqlite:///${join(shortenerDir, "data/shortener.db")}).\n`);
  });
});

// ---- Interactive: a real pseudo-terminal from util-linux `script` ----

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** The command on a pseudo-terminal; `type` writes keystrokes as a user would, after the prompt shows. */
function openTerminal(args: readonly string[], env: Record<string, string>) {
  const child = Bun.spawn(["script", "-qfec", [...command, ...args].map(shellQuote).join(" "), "/dev/null"], {
    cwd: shortenerDir,
    env: commandEnv(env),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let screen = "";
  let seen = 0;
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) screen += decoder.decode(chunk, { stream: true });
  })();
  // A command stuck on an unexpected prompt fails the test with what it shows, rather than hanging it.
  const expectSoon = async (what: string, condition: () => boolean) => {
    try {
      await waitFor(what, condition);
    } catch (error) {
      child.kill();
      throw new Error(`${(error as Error).message}; the terminal shows ${JSON.stringify(screen)}`);
    }
  };
  return {
    /** Waits for `text` to appear after what was waited for before, then types `keys`. */
    async answer(text: string, keys: string) {
      await expectSoon(`"${text}" on the terminal`, () => screen.indexOf(text, seen) >= 0);
      seen = screen.indexOf(text, seen) + text.length;
      child.stdin.write(keys);
      child.stdin.flush();
    },
    async finish(): Promise<{ exitCode: number; screen: string }> {
      await expectSoon("the command to exit", () => child.exitCode !== null);
      child.stdin.end();
      await reading;
      expect(await new Response(child.stderr).text()).toBe("");
      // The terminal turns "\n" into "\r\n"; compare plain lines.
      return { exitCode: child.exitCode!, screen: screen.replaceAll("\r\n", "\n") };
    },
  };
}

// Each case types into a terminal of its own and names an admin of its own: they run side by side.
describe.concurrent("bun run createsuperuser on a terminal", () => {
  let dir: string;
  let env: Record<string, string>;
  let database: Database;
  beforeAll(async () => {
    // util-linux's `script` is in every Debian (bsdutils is essential), but not in every slim image.
    installDebianPackageIfMissing("/usr/bin/script", "bsdutils");
    dir = mkdtempSync(join(tmpdir(), "createsuperuser-tty-"));
    const path = join(dir, "shortener.db");
    env = { DATABASE_URL: `sqlite:///${path}` };
    database = await openDatabase({ engine: "sqlite", path });
    await createSuperuser(database.admins, () => t0, { username: "taken", password: "secret123" });
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("prompts for the username and the password twice, never showing the password", async () => {
    const terminal = openTerminal([], env);
    await terminal.answer("Username: ", "ivyx\x7f\r"); // a typo, erased with Backspace
    await terminal.answer("Password: ", "hidden pass\r");
    await terminal.answer("Password (again): ", "hidden pass\r");
    expect(await terminal.finish()).toEqual({
      exitCode: 0,
      screen: "Username: ivyx\b \b\nPassword: \nPassword (again): \nSuperuser ivy created.\n",
    });
    expect(await Bun.password.verify("hidden pass", (await database.admins.find("ivy"))!.passwordHash)).toBe(true);
  });

  test("asks again after a taken username and mismatched passwords", async () => {
    const terminal = openTerminal([], env);
    await terminal.answer("Username: ", "taken\r");
    await terminal.answer("Username: ", "judy\r");
    await terminal.answer("Password: ", "first pass\r");
    await terminal.answer("Password (again): ", "other pass\r");
    await terminal.answer("Password: ", "wxyz pass\x7f\x7f\x7f\x7fpass\r"); // "wxyz pass" typed, erased back to "wxyz ", then "pass"
    await terminal.answer("Password (again): ", "wxyz pass\r");
    expect(await terminal.finish()).toEqual({
      exitCode: 0,
      screen: [
        "Username: taken",
        'Error: the username "taken" is already taken.',
        "Username: judy",
        "Password: ",
        "Password (again): ",
        "Error: the passwords do not match.",
        "Password: ",
        "Password (again): ",
        "Superuser judy created.",
        "",
      ].join("\n"),
    });
    expect(await Bun.password.verify("wxyz pass", (await database.admins.find("judy"))!.passwordHash)).toBe(true);
  });

  test("prompts only for the password when --username is given", async () => {
    const terminal = openTerminal(["--username", "kim"], env);
    await terminal.answer("Password: ", "kims pass\r");
    await terminal.answer("Password (again): ", "kims pass\r");
    expect(await terminal.finish()).toEqual({ exitCode: 0, screen: "Password: \nPassword (again): \nSuperuser kim created.\n" });
  });

  test("Ctrl-C aborts with exit 1 and creates nothing", async () => {
    const terminal = openTerminal([], env);
    await terminal.answer("Username: ", "leo\r");
    await terminal.answer("Password: ", "sec\x03");
    expect(await terminal.finish()).toEqual({ exitCode: 1, screen: "Username: leo\nPassword: \ncreatesuperuser: aborted\n" });
    expect(await database.admins.find("leo")).toBeNull();
  });

  test("--no-input does not prompt even on a terminal", async () => {
    const terminal = openTerminal(["--no-input"], env);
    expect(await terminal.finish()).toEqual({
      exitCode: 1,
      screen: `createsuperuser: missing ${missingUsername} and ${missingPassword}; cannot prompt: --no-input was given\n`,
    });
  });
});
