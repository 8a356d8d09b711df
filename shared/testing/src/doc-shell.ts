import type { DocCommand } from "./doc-blocks.ts";

/** One command as a shell ran it. */
export interface RanCommand<Command extends DocCommand = DocCommand> {
  command: Command;
  /** What it printed, stdout and stderr together, in order. */
  printed: string;
  status: number;
}

export interface ShellRun<Command extends DocCommand = DocCommand> {
  /** The commands that ran to their end, in order. */
  ran: RanCommand<Command>[];
  /** Set when the shell stopped before every command ended: the one it was in, if any, and why. */
  stopped?: { during?: Command; reason: string; printed: string };
}

export interface RunInShellOptions {
  /** `bash` or `zsh`, run as a script, as a person's pasted lines are run. */
  shell: "bash" | "zsh";
  cwd: string;
  env: Record<string, string>;
  /** The whole list's deadline; a command still running then is named in `stopped`. */
  timeoutMs: number;
}

/**
 * Runs commands one after another in one shell process, as a person pastes
 * them into one terminal (a variable set by one is there for the next), and
 * tells apart what each printed and its exit status by lines the shell
 * prints between them. stdin is empty: a command that asks for input gets
 * end-of-file.
 */
export async function runInShell<Command extends DocCommand>(commands: readonly Command[], options: RunInShellOptions): Promise<ShellRun<Command>> {
  const mark = `@@doc-${crypto.randomUUID()}`;
  // pipefail: `curl … | jq` fails when curl does, as the command's own status says.
  const script = ["exec 2>&1", options.shell === "zsh" ? "setopt pipefail" : "set -o pipefail"];
  for (const [index, command] of commands.entries()) {
    script.push(`printf '\\n${mark} start ${index}\\n'`, command.text, `printf '\\n${mark} end ${index} %s\\n' "$?"`);
  }
  // A group of its own, so a deadline ends whatever a command started too (a server left running holds the pipes open).
  const shell = Bun.spawn([options.shell, "-c", script.join("\n")], {
    cwd: options.cwd,
    env: options.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-shell.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  };
  const reading = Promise.all([new Response(shell.stdout).text(), new Response(shell.stderr).text()]);
  const deadline = Promise.withResolvers<"deadline">();
  const timer = setTimeout(() => deadline.resolve("deadline"), options.timeoutMs);
  const ended = await Promise.race([shell.exited.then(() => "exited" as const), deadline.promise]);
  clearTimeout(timer);
  // A command may have left a process behind in the background: it must not outlive the run.
  killGroup();
  // What the group held open closes with it; a process that left the group (setsid) gets a short grace, then is not waited for.
  const grace = Bun.sleep(2_000).then(() => undefined);
  const read = await Promise.race([reading, grace]);
  const output = read?.[0] ?? "";

  const { ran, started } = splitByMarks(output, mark, commands);
  if (ran.length === commands.length && ended === "exited" && read) return { ran };
  const reason =
    ended === "deadline"
      ? `still running after ${options.timeoutMs} ms`
      : !read
        ? "a process it started kept its output open after it ended"
        : ran.length === commands.length
          ? "its output is not what was run"
          : `the shell exited (${shell.exitCode}) or a command was not read as the page meant`;
  return { ran, stopped: { during: started && commands[started.index], reason, printed: started?.printed ?? output } };
}

/**
 * The commands' runs from the marked output: each must start and end in
 * order, 0, 1, 2…, as written. A command the page's text split otherwise
 * than the shell ran it (a loop, a heredoc) breaks the order, and what came
 * before it is all that is kept.
 */
function splitByMarks<Command extends DocCommand>(
  output: string,
  mark: string,
  commands: readonly Command[],
): { ran: RanCommand<Command>[]; started?: { index: number; printed: string } } {
  const ran: RanCommand<Command>[] = [];
  let started: { index: number; printed: string } | undefined;
  for (const piece of output.split(new RegExp(`\\n?${mark} `)).slice(1)) {
    const start = /^start (\d+)\n/.exec(piece);
    const end = /^end (\d+) (\d+)\n/.exec(piece);
    if (start && started === undefined && Number(start[1]) === ran.length) {
      started = { index: ran.length, printed: piece.slice(start[0].length) };
    } else if (end && started !== undefined && Number(end[1]) === started.index) {
      ran.push({ command: commands[started.index]!, printed: started.printed, status: Number(end[2]) });
      started = undefined;
    } else {
      break;
    }
  }
  return { ran, started };
}
