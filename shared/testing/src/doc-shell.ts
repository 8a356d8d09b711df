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
  const script = ["exec 2>&1"];
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
  let timedOut = false;
  const killGroup = () => {
    try {
      process.kill(-shell.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  const [output] = await Promise.all([new Response(shell.stdout).text(), new Response(shell.stderr).text()]);
  const exitCode = await shell.exited;
  clearTimeout(timer);
  // A command may have left a process behind in the background: it must not outlive the run.
  killGroup();

  const ran: RanCommand<Command>[] = [];
  const pieces = output.split(new RegExp(`\\n?${mark} `));
  let started: { index: number; printed: string } | undefined;
  for (const piece of pieces.slice(1)) {
    const start = /^start (\d+)\n/.exec(piece);
    const end = /^end (\d+) (\d+)\n/.exec(piece);
    if (start) started = { index: Number(start[1]), printed: piece.slice(start[0].length) };
    else if (end && started) {
      ran.push({ command: commands[started.index]!, printed: started.printed, status: Number(end[2]) });
      started = undefined;
    }
  }
  if (ran.length === commands.length) return { ran };
  const reason = timedOut ? `still running after ${options.timeoutMs} ms` : `the shell exited (${exitCode})`;
  return { ran, stopped: { during: started && commands[started.index], reason, printed: started?.printed ?? output } };
}
