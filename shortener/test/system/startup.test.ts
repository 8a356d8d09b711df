import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const shortenerDir = join(import.meta.dir, "../..");

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
      env: { PATH: process.env.PATH, PORT: "0", DATABASE_URL: "postgres://nobody:hunter2secret@127.0.0.1:1/none", LOG_FORMAT: "json" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
    expect(exitCode).toBe(1);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // It names the variable to fix and the address, never the password.
    expect(lines.at(-1)).toMatchObject({
      level: "error",
      service: "shortener",
      msg: "cannot open the database",
      engine: "postgres",
      at: "DATABASE_URL=postgres://nobody:***@127.0.0.1:1/none",
    });
    expect(stdout).not.toContain("hunter2secret");
  });

  test("a metrics port another process holds stops it with exit code 1 and one clear line, not a clean exit", async () => {
    using taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: shortenerDir,
      env: {
        PATH: process.env.PATH,
        PORT: "0",
        HOST: "127.0.0.1",
        METRICS_PORT: String(taken.port),
        DATABASE_URL: "sqlite:///:memory:",
        ANALYTICS: "off",
        LOG_FORMAT: "json",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
    expect(exitCode).toBe(1);
    const errors = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => line.level === "error");
    expect(errors).toEqual([expect.objectContaining({ service: "shortener", msg: "cannot listen", listener: "metrics", address: `127.0.0.1:${taken.port}` })]);
  });
});
