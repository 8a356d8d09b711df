import type { ReadStream } from "node:tty";

/** Ctrl-C, or Ctrl-D / end of input on an empty line: the user gave up. */
export class PromptAborted extends Error {
  override name = "PromptAborted";
  constructor() {
    super("aborted");
  }
}

export interface PromptOptions {
  /** False for passwords: nothing typed is shown. */
  echo: boolean;
}

/**
 * Line input on a terminal in raw mode, so a password is never echoed.
 * Raw mode stays on from `open` to `close`, and keystrokes are buffered
 * across questions: answers typed (or pasted) ahead are not lost, and never
 * reach the screen in between as they would if the terminal went back to
 * cooked mode.
 */
export class TerminalPrompt {
  private pending = "";
  private ended = false;
  private wake: (() => void) | null = null;
  // After a line ended with "\r", a "\n" right behind it is the same Enter.
  private afterCarriageReturn = false;

  private constructor(
    private readonly input: ReadStream,
    private readonly output: { write(text: string): unknown },
  ) {}

  static open(input: ReadStream, output: { write(text: string): unknown }): TerminalPrompt {
    const prompt = new TerminalPrompt(input, output);
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.on("data", prompt.onData);
    input.on("end", prompt.onEnd);
    input.resume();
    return prompt;
  }

  close(): void {
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    if (this.input.isTTY) this.input.setRawMode(false);
    this.input.pause();
  }

  async ask(question: string, { echo }: PromptOptions): Promise<string> {
    this.output.write(question);
    let line = "";
    for (;;) {
      const key = await this.nextKey();
      if (key === "\n" && this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        continue;
      }
      this.afterCarriageReturn = key === "\r";
      if (key === "\r" || key === "\n") {
        this.output.write("\n");
        return line;
      }
      if (key === null || key === "\x03" || (key === "\x04" && line === "")) {
        this.output.write("\n");
        throw new PromptAborted();
      }
      if (key === "\x7f" || key === "\b") {
        if (line === "") continue;
        const last = [...line].pop()!;
        line = line.slice(0, -last.length);
        if (echo) this.output.write("\b \b");
      } else if (key === "\x15") {
        // Ctrl-U: erase the whole line.
        if (echo) this.output.write("\b \b".repeat([...line].length));
        line = "";
      } else if (key >= " " && key !== "\x7f") {
        line += key;
        if (echo) this.output.write(key);
      }
      // Other control keys (arrows, Tab, Ctrl-D mid-line) are ignored.
    }
  }

  private readonly onData = (chunk: string | Buffer) => {
    this.pending += chunk.toString();
    this.wake?.();
  };

  private readonly onEnd = () => {
    this.ended = true;
    this.wake?.();
  };

  /** One character, an escape sequence (arrow keys) as a whole, or null at end of input. */
  private async nextKey(): Promise<string | null> {
    while (this.pending === "") {
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    const key = /^\x1b(\[[0-9;]*[@-~]|O.)?/.exec(this.pending)?.[0] ?? String.fromCodePoint(this.pending.codePointAt(0)!);
    this.pending = this.pending.slice(key.length);
    return key;
  }
}
