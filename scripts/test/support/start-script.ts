import { waitFor } from "@linkgeo/testing";

export interface StartScriptOptions {
  /**
   * Run as the package script, `bun run start` (bun then runs the script as
   * its own child), in a process group of its own: `process.kill(-pid, …)`
   * signals the group, as a terminal's Ctrl-C does. Otherwise
   * `bun run scripts/start.ts`.
   */
  asPackageScript?: boolean;
}

/** The start script as a child in `root` (a repository), its output gathered line by line. */
export class StartScript {
  readonly lines: string[] = [];
  readonly proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  private readonly done: Promise<void>;

  /** `env` is the whole environment: nothing of the test runner's leaks in. */
  constructor(root: string, args: string[], env: Record<string, string | undefined>, { asPackageScript = false }: StartScriptOptions = {}) {
    this.proc = Bun.spawn([process.execPath, "run", asPackageScript ? "start" : "scripts/start.ts", ...args], {
      cwd: root,
      env,
      detached: asPackageScript,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.done = Promise.all([this.collect(this.proc.stdout), this.collect(this.proc.stderr)]).then(() => {});
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async waitForLine(what: string, match: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
    await waitFor(
      what,
      () => {
        if (this.lines.some(match)) return true;
        if (!this.running) throw new Error(`the script exited (${this.proc.exitCode}) before ${what}:\n${this.lines.join("\n")}`);
        return false;
      },
      timeoutMs,
    );
    return this.lines.find(match)!;
  }

  /** The exit code, once the output is fully read. */
  async exited(): Promise<number> {
    const code = await this.proc.exited;
    await this.done;
    return code;
  }

  /** SIGTERM if it still runs (it stops its services), then waits for it. */
  async stop(): Promise<void> {
    if (this.running) this.proc.kill("SIGTERM");
    await this.exited();
  }

  private async collect(stream: ReadableStream<Uint8Array>): Promise<void> {
    let partial = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      partial += decoder.decode(chunk, { stream: true });
      const parts = partial.split("\n");
      partial = parts.pop() ?? "";
      this.lines.push(...parts);
    }
    if (partial) this.lines.push(partial);
  }
}
