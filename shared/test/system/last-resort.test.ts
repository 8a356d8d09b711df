import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const fixture = join(import.meta.dir, "..", "fixtures", "throws-then-lives.ts");

async function run(...args: string[]) {
  const child = Bun.spawn([process.execPath, "run", fixture, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

describe("keepServingOnUnexpectedErrors", () => {
  test("logs a throw in a timer and an unawaited rejection, and the process goes on", async () => {
    const { code, stdout } = await run("--with-last-resort");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("still serving");
    const events = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map(({ level, msg, error }) => ({ level, msg, error })).sort((a, b) => String(a.msg).localeCompare(String(b.msg)))).toEqual([
      { level: "error", msg: "uncaught exception, still serving", error: "Error: thrown in a timer" },
      { level: "error", msg: "unhandled promise rejection, still serving", error: "Error: rejected with nobody awaiting" },
    ]);
  });

  test("without it, the same errors end the process (what the services used to do)", async () => {
    const { code, stdout } = await run();
    expect(code).not.toBe(0);
    expect(stdout).not.toContain("still serving");
  });
});
