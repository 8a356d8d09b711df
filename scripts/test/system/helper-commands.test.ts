import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { freePort } from "@linkgeo/testing";
import { StartScript } from "../support/start-script.ts";

// Each case starts Bun; createsuperuser hashes with argon2id and the geocoder loads its places at start.
setDefaultTimeout(60_000);

const root = join(import.meta.dir, "../../..");

/**
 * The repository as a person has it, in a temporary folder: the root's files
 * and the shortener's and the geocoder's code copied, so their default data/
 * folders are the copy's, the rest linked. Nothing below sets DATABASE_URL:
 * the default database is what is tested, and the real repository's data/
 * is never written.
 */
function copyOfRepository(into: string): string {
  const copy = join(into, "repo");
  const copied = ["package.json", "bunfig.toml", "tsconfig.json", "scripts/start.ts", "shortener/package.json", "shortener/bunfig.toml", "shortener/src"];
  for (const path of [...copied, "geocoder/package.json", "geocoder/src"]) cpSync(join(root, path), join(copy, path), { recursive: true });
  for (const path of ["node_modules", "shared", "gateway", "geocoder/assets"]) symlinkSync(join(root, path), join(copy, path));
  return copy;
}

describe("bun run createsuperuser, import and geocode, at the root and in their service's folder, beside `bun run start` at the root", () => {
  const dir = mkdtempSync(join(tmpdir(), "helper-commands-"));
  const copy = copyOfRepository(dir);
  const files = join(dir, "files");
  mkdirSync(files);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", LOG_LEVEL: "warn" };
  let start: StartScript;
  let shortener: string;
  let geocoder: string;

  beforeAll(async () => {
    const ports = { shortener: await freePort(), geocoder: await freePort() };
    start = new StartScript(copy, ["shortener", "geocoder"], { ...env, SHORTENER_PORT: String(ports.shortener), GEOCODER_PORT: String(ports.geocoder) });
    await start.waitForLine("the ready line", (line) => line.startsWith("start     | ready: "), 50_000);
    shortener = `http://127.0.0.1:${ports.shortener}`;
    geocoder = `http://127.0.0.1:${ports.geocoder}`;
  });
  afterAll(async () => {
    await start?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `bun run <args>` in `cwd`, as a person types it there. */
  async function run(cwd: string, args: string[]) {
    const child = Bun.spawn([process.execPath, "run", ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [exitCode, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    return { exitCode, stdout, stderr };
  }

  /** A file of the temporary folder named as a person standing in `cwd` would: relative, so a command that read it from another folder would miss it. */
  const named = (cwd: string, file: string) => relative(cwd, file);

  /** Only the shortener's own data/ holds a database, wherever the commands ran. */
  const onlyTheShortenersDatabase = () => {
    expect(existsSync(join(copy, "data"))).toBe(false);
    expect(readdirSync(join(copy, "shortener/data"))).toContain("shortener.db");
  };

  const shortenerFolders = [
    { where: "at the root", folder: "", admin: "root-admin", code: "from-root" },
    { where: "in shortener/", folder: "shortener", admin: "folder-admin", code: "from-folder" },
  ];

  test.each(shortenerFolders)("createsuperuser $where creates an admin of the database the service serves", async ({ folder, admin }) => {
    const created = await run(join(copy, folder), ["createsuperuser", "--username", admin, "--password", "correct horse"]);
    expect(created).toEqual({ exitCode: 0, stdout: `Superuser ${admin} created.\n`, stderr: "" });

    const login = await fetch(`${shortener}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: admin, password: "correct horse" }),
    });
    expect(login.status).toBe(200);
    onlyTheShortenersDatabase();
  });

  test.each(shortenerFolders)("import $where reads a file named from there into the database the service serves", async ({ folder, code }) => {
    const cwd = join(copy, folder);
    const file = join(files, `${code}.csv`);
    writeFileSync(file, `long_url,short_url\nhttps://example.com/${code},${code}\n`);

    const imported = await run(cwd, ["import", named(cwd, file)]);
    expect(imported).toMatchObject({ exitCode: 0, stderr: "" });
    expect(imported.stdout).toMatch(/^imported +1$/m);

    const record = await fetch(`${shortener}/shorten/${code}/`);
    expect(record.status).toBe(200);
    expect(await record.json()).toMatchObject({ short_url: code, long_url: `https://example.com/${code}` });
    onlyTheShortenersDatabase();
  });

  test.each([
    { where: "at the root", folder: "", name: "root" },
    { where: "in geocoder/", folder: "geocoder", name: "folder" },
  ])("geocode $where reads and writes files named from there", async ({ folder, name }) => {
    const cwd = join(copy, folder);
    const input = join(files, `points-${name}.csv`);
    const output = join(files, `out-${name}.csv`);
    writeFileSync(input, "id,latitude,longitude\n1,48.2,16.37\n");

    const geocoded = await run(cwd, ["geocode", named(cwd, input), named(cwd, output), "--url", geocoder, "--platform", "local", "--batch"]);
    // Not stderr: in geocoder/ (no bunfig.toml of its own) `bun run` echoes the script's command line there.
    expect(geocoded.exitCode).toBe(0);
    expect(geocoded.stdout).toMatch(/^with an address +1$/m);
    const [header, row] = (await Bun.file(output).text()).split("\n");
    expect(header).toStartWith("id,latitude,longitude,formatted_address,");
    expect(row).toStartWith("1,48.2,16.37,");
    expect(row).toContain(",LOCAL,");
  });
});
