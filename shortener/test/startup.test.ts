import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const shortenerDir = join(import.meta.dir, "..");

describe("starting the shortener", () => {
  test("a bad configuration stops it with one line per bad variable", async () => {
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: shortenerDir,
      env: { PATH: process.env.PATH, PORT: "-1", REDIS_URL: "http://cache", NODE_ENV: "production" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(exitCode).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      'shortener: PORT must be a whole number from 0 to 65535 (got "-1")',
      "shortener: REDIS_URL must use redis or rediss, not http",
      "shortener: ELYSIA_SECRET_KEY is required when NODE_ENV=production",
    ]);
  });

  test("an unreachable database stops it with a clear error, not a hang", async () => {
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: shortenerDir,
      env: { PATH: process.env.PATH, PORT: "0", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", LOG_FORMAT: "json" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
    expect(exitCode).toBe(1);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ level: "error", service: "shortener", msg: "cannot open the database", engine: "postgres" });
  });
});
