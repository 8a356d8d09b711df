import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTestDatabase } from "@linkgeo/testing";
import { exportColumns } from "../../src/transfer/exported-link.ts";
import { ImportArgsError, parseImportArgs, type ImportArgs } from "../../src/transfer/import-args.ts";

// Each case starts Bun and opens a database.
setDefaultTimeout(20_000);

const shortenerDir = resolve(import.meta.dir, "../..");

describe("parseImportArgs", () => {
  test.each<[string[], ImportArgs]>([
    [["links.csv"], { file: "links.csv", format: undefined, domains: "default", dryRun: false, help: false }],
    [["--format", "shlink", "--dry-run", "--domains", "create", "x.csv"], { file: "x.csv", format: "shlink", domains: "create", dryRun: true, help: false }],
    [["--help"], { dryRun: false, domains: "default", help: true }],
  ])("parses %j", (argv, parsed) => {
    expect(parseImportArgs(argv)).toEqual(parsed);
  });

  test.each([
    [[], "name one file to import (see --help)"],
    [["a", "b"], "name one file to import (see --help)"],
    [["--format", "xml", "a"], "--format must be one of linkgeo-ndjson, linkgeo-csv, csv, shlink, bitly, yourls"],
    [["--domains", "merge", "a"], "--domains must be one of default, create, refuse"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseImportArgs(argv)).toThrow(new ImportArgsError(message));
  });
});

describe("bun run import", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-import-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, DATABASE_URL: `sqlite:///${join(dir, "links.db")}`, NO_COLOR: "1" };

  async function runImport(...args: string[]) {
    return runImportOn(env, ...args);
  }
  async function runImportOn(on: Record<string, string | undefined>, ...args: string[]) {
    const child = Bun.spawn(["bun", "run", "import", ...args], { cwd: shortenerDir, env: on, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { stdout, stderr, code };
  }
  const summaryOf = (stdout: string) =>
    Object.fromEntries(
      stdout
        .split("\n")
        .filter((line) => /^(lines|imported|would import|skipped|problems|format|dry run) /.test(line))
        .map((line) => line.split(/ {2,}/) as [string, string]),
    );

  test("imports a file, telling its format by the header, reports each row not imported, and ends with a summary; a second run changes nothing", async () => {
    const file = join(dir, "links.csv");
    const row = (code: string, url: string, count: number) =>
      `${code},,${url},,tag,,,,,false,false,[],active,${count},,2026-11-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,false`;
    writeFileSync(
      file,
      [exportColumns.join(","), row("cli-a", "https://example.com/a", 3), row("docs", "https://example.com/reserved", 0), row("cli-b", "nope", 1), ""].join(
        "\r\n",
      ),
    );

    const first = await runImport(file);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('line 3: skipped (docs): short_url "docs" is a reserved word\n');
    expect(first.stdout).toContain("line 4: problem: long_url must be an absolute http or https URL\n");
    expect(summaryOf(first.stdout)).toEqual({ format: "linkgeo-csv", "dry run": "no", lines: "4", imported: "1", skipped: "1", problems: "1" });

    const dry = await runImport("--dry-run", file);
    expect(summaryOf(dry.stdout)).toMatchObject({ "dry run": "yes (nothing stored)", "would import": "0", skipped: "2" });

    const again = await runImport(file, "--format", "linkgeo-csv");
    expect(again.stdout).toContain('line 2: skipped (cli-a): short_url "cli-a" is taken\n');
    expect(summaryOf(again.stdout)).toMatchObject({ imported: "0", skipped: "2", problems: "1" });
  });

  test("reads THREAT_FEEDS as the service does: a row whose destination a feed lists is a problem row", async () => {
    const file = join(dir, "threats.ndjson");
    writeFileSync(
      file,
      `${JSON.stringify({ short_url: "cli-fine", long_url: "https://example.com/fine" })}\n${JSON.stringify({ short_url: "cli-listed", long_url: "https://www.ads.tracker.example/" })}\n`,
    );
    const feeds = join(import.meta.dir, "../fixtures/threat-feeds/hosts.txt");
    const run = await runImportOn({ ...env, THREAT_FEEDS: feeds }, file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('line 2: problem: long_url is on the threat list "hosts.txt": it may not be a link\'s destination here\n');
    expect(summaryOf(run.stdout)).toMatchObject({ imported: "1", problems: "1" });
  });

  test("fails with one line when the file is missing or its format cannot be told", async () => {
    expect(await runImport(join(dir, "absent.csv"))).toMatchObject({ code: 1, stderr: `import: no such file: ${join(dir, "absent.csv")}\n` });
    const odd = join(dir, "odd.csv");
    writeFileSync(odd, "name,age\nx,1\n");
    expect(await runImport(odd)).toMatchObject({ code: 1, stderr: "import: cannot tell the file's format from its first line: name it with --format\n" });
  });

  test.each(["sqlite", "postgres"] as const)(
    "on %s, a row whose date no engine stores alike is its line's problem; the six good rows around it are stored",
    async (engine) => {
      await using postgres = engine === "postgres" ? await createTestDatabase("import_cli") : undefined;
      const databaseUrl = postgres?.url ?? `sqlite:///${join(dir, "dates.db")}`;
      const file = join(dir, `dates-${engine}.ndjson`);
      const good = (n: number) => JSON.stringify({ short_url: `cli-date-${n}`, long_url: `https://example.com/${n}`, created_at: "2026-11-01T00:00:00.000Z" });
      const bad = JSON.stringify({ short_url: "cli-year-0", long_url: "https://example.com/year-0", created_at: "0000-01-01T00:00:00Z" });
      writeFileSync(file, [good(1), good(2), good(3), bad, good(4), good(5), good(6), ""].join("\n"));

      const run = await runImportOn({ ...env, DATABASE_URL: databaseUrl }, file);

      expect(run).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout).toContain("line 4: problem: created_at must be from 1970 to 9998\n");
      expect(summaryOf(run.stdout)).toEqual({ format: "linkgeo-ndjson", "dry run": "no", lines: "7", imported: "6", skipped: "0", problems: "1" });
    },
  );

  test("prints what a file wrote with its control characters and bidi marks escaped: a code cannot send the terminal an escape sequence nor reorder a line", async () => {
    const file = join(dir, "escapes.csv");
    writeFileSync(file, "long_url,short_url\nhttps://example.com/escape,\u001b[2J\u001b]0;owned\u0007x\nhttps://example.com/bidi,a\u202egpj.exe\n");

    const run = await runImport(file, "--format", "csv");

    expect(run.stdout).toContain("line 2: skipped (\\u001b[2J\\u001b]0;owned\\u0007x): short_url must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -\n");
    expect(run.stdout).toContain("line 3: skipped (a\\u202egpj.exe): short_url must be 3 to 32 characters of A-Z, a-z, 0-9, _ and -\n");
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).not.toContain("\u202e");
  });
});
