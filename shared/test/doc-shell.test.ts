import { beforeAll, describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { commandsOf, installDebianPackageIfMissing, runInShell, waitFor } from "@linkgeo/testing";

beforeAll(() => installDebianPackageIfMissing("/usr/bin/zsh", "zsh"));

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

describe.concurrent("runInShell", () => {
  for (const shell of ["bash", "zsh"] as const) {
    test(`${shell}: one session, each command's output and status apart`, async () => {
      const commands = commandsOf(["name=world", 'echo "hello $name"', "printf 'no newline'", "echo oops >&2; false", "echo after"]);
      const run = await runInShell(commands, { shell, cwd: tmpdir(), env, timeoutMs: 10_000 });
      expect(run.stopped).toBeUndefined();
      expect(run.ran.map(({ printed, status }) => ({ printed, status }))).toEqual([
        { printed: "", status: 0 },
        { printed: "hello world\n", status: 0 },
        { printed: "no newline", status: 0 },
        { printed: "oops\n", status: 1 },
        { printed: "after\n", status: 0 },
      ]);
    });
  }

  test("a command still running at the deadline is named, and what it started is ended with it", async () => {
    const marker = `doc-shell-${crypto.randomUUID()}`;
    const commands = commandsOf(["echo first", `bash -c 'exec -a ${marker} sleep 600' &`, "echo started; sleep 600"]);
    const run = await runInShell(commands, { shell: "bash", cwd: tmpdir(), env, timeoutMs: 1_000 });
    expect(run.ran.map(({ command }) => command.text)).toEqual(["echo first", commands[1]!.text]);
    expect(run.stopped).toEqual({ during: commands[2], reason: "still running after 1000 ms", printed: "started\n" });
    await waitFor("the background sleep to be gone", () => Bun.spawnSync(["pgrep", "-f", marker]).exitCode === 1, 5_000);
  });

  test("a pipeline fails when any of its commands does (pipefail), in both shells", async () => {
    for (const shell of ["bash", "zsh"] as const) {
      const run = await runInShell(commandsOf(["false | cat", "true | cat"]), { shell, cwd: tmpdir(), env, timeoutMs: 10_000 });
      expect(run.ran.map(({ status }) => status)).toEqual([1, 0]);
    }
  });

  test("a command the page split otherwise than the shell runs it (a loop) stops the run, never passes", async () => {
    const run = await runInShell(commandsOf(["for i in 1 2; do", "  echo $i", "done", "false", "echo never"]), {
      shell: "bash",
      cwd: tmpdir(),
      env,
      timeoutMs: 10_000,
    });
    expect(run.stopped).toBeDefined();
    expect(run.ran.length).toBeLessThan(5);
  });

  test("a process left in the background does not hold the run to its deadline", async () => {
    // Waited for, the run would stop at its deadline (30 s of sleep against 20): it ends with the shell's group instead.
    const run = await runInShell(commandsOf(["sleep 30 &", "echo hi"]), { shell: "bash", cwd: tmpdir(), env, timeoutMs: 20_000 });
    expect(run.stopped).toBeUndefined();
    expect(run.ran.map(({ printed }) => printed)).toEqual(["", "hi\n"]);
  });

  test("one that leaves the group and keeps the output open is named after a short grace", async () => {
    const marker = `doc-shell-${crypto.randomUUID()}`;
    // The shell waits until the sleep has left its group: ended before its setsid, it would go with the group and close the output.
    const leftTheGroup = `until pgrep -f '^${marker} ' > /dev/null; do sleep 0.01; done`;
    const run = await runInShell(commandsOf([`setsid bash -c 'exec -a ${marker} sleep 30' &`, leftTheGroup, "echo hi"]), {
      shell: "bash",
      cwd: tmpdir(),
      env,
      timeoutMs: 20_000,
    });
    Bun.spawnSync(["pkill", "-f", marker]);
    expect(run.stopped?.reason).toBe("a process it started kept its output open after it ended");
  });
});
