import { waitFor } from "@linkgeo/testing";
import { BenchError, checkNotInterrupted, onCleanup } from "./lifecycle.ts";

/** A child whose output is drained (so it never blocks on a full pipe) and kept for error reports. */
export class Child {
  private readonly tail: string[] = [];
  private lines = 0;

  constructor(
    readonly name: string,
    readonly proc: Bun.Subprocess<"ignore", "pipe", "pipe">,
  ) {
    void this.drain(proc.stdout);
    void this.drain(proc.stderr);
  }

  /** The last 40 lines of stdout and stderr. */
  output(): string {
    return this.tail.join("\n");
  }

  /** Lines written so far, on stdout and stderr together. */
  get lineCount(): number {
    return this.lines;
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill("SIGTERM");
    const exited = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
    if (!exited) {
      this.proc.kill("SIGKILL");
      await this.proc.exited;
    }
  }

  private async drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      partial += decoder.decode(chunk, { stream: true });
      const parts = partial.split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) this.keep(line);
    }
    if (partial) this.keep(partial);
  }

  private keep(line: string): void {
    this.lines++;
    this.tail.push(line);
    if (this.tail.length > 40) this.tail.shift();
  }
}

/** Starts a child and registers its stop as a cleanup. */
export function spawnChild(name: string, cmd: string[], options: { cwd?: string; env: Record<string, string | undefined> }): Child {
  checkNotInterrupted();
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const child = new Child(name, proc);
  onCleanup(`stop ${name}`, () => child.stop());
  return child;
}

/** Polls until `condition` holds; fails early, with the child's output, if the child dies. */
export async function waitForChild(child: Child, what: string, condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    what,
    async () => {
      if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
        throw new BenchError(`${child.name} exited (${child.proc.exitCode ?? child.proc.signalCode}) before ${what}:\n${child.output()}`);
      }
      return condition();
    },
    timeoutMs,
  ).catch((error) => {
    if (error instanceof BenchError) throw error;
    throw new BenchError(`${error instanceof Error ? error.message : error}\n${child.name} output:\n${child.output()}`);
  });
}

/**
 * Waits for the service's /ready to answer 200 {"status": "ready"}: every
 * dependency, optional ones included, answers (a "degraded" service would be
 * measured without its cache).
 */
export async function waitForReady(child: Child, base: string): Promise<void> {
  let last = "no answer";
  await waitForChild(child, `${child.name}'s /ready on ${base}`, async () => {
    const response = await fetch(`${base}/ready`).catch(() => null);
    if (!response) return false;
    const text = await response.text().catch(() => "");
    last = `${response.status} ${text}`;
    try {
      return response.status === 200 && (JSON.parse(text) as { status?: string }).status === "ready";
    } catch {
      return false;
    }
  }).catch((error) => {
    throw new BenchError(`${error instanceof Error ? error.message : error}\nlast /ready answer: ${last}`);
  });
}
