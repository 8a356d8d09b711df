import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { exportColumns } from "../../src/transfer/exported-link.ts";
import { ImportArgsError, parseImportArgs, type ImportArgs } from "../../src/transfer/import-args.ts";

// Each case starts Bun and opens a database.
setDefaultTimeout(20_000);

const shortenerDir = resolve(import.meta.dir, "../..");

describe("parseImportArgs", () => {
  test.each<[string[], ImportArgs]>([
    [["links.csv"], { file: "links.csv", format: undefined, dryRun: false, help: false }],
    [["--format", "shlink", "--dry-run", "x.csv"], { file: "x.csv", format: "shlink", dryRun: true, help: false }],
    [["--help"], { dryRun: false, help: true }],
  ])("parses %j", (argv, parsed) => {
    expect(parseImportArgs(argv)).toEqual(parsed);
  });

  test.each([
    [[], "name one file to import (see --help)"],
    [["a", "b"], "name one file to import (see --help)"],
    [["--format", "xml", "a"], "--format must be one of linkgeo-ndjson, linkgeo-csv, csv, shlink, bitly, yourls"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseImportArgs(argv)).toThrow(new ImportArgsError(message));
  });
});

describe("bun run import", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-import-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, DATABASE_URL: `sqlite:///${join(dir, "links.db")}`, NO_COLOR: "1" };

  async function runImport(...args: string[]) {
    const child = Bun.spawn(["bun", "run", "import", ...args], { cwd: shortenerDir, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
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
      `${code},${url},,tag,,,,,false,false,[],active,${count},,2026-11-01T00:00:00.000Z,2026-11-01T00:00:00.000Z`;
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

  test("fails with one line when the file is missing or its format cannot be told", async () => {
    expect(await runImport(join(dir, "absent.csv"))).toMatchObject({ code: 1, stderr: `import: no such file: ${join(dir, "absent.csv")}\n` });
    const odd = join(dir, "odd.csv");
    writeFileSync(odd, "name,age\nx,1\n");
    expect(await runImport(odd)).toMatchObject({ code: 1, stderr: "import: cannot tell the file's format from its first line: name it with --format\n" });
  });
});
