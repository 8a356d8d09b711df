/**
 * The shell blocks of our Markdown pages, read as a person pastes them: a
 * block is a list of commands, and the comment lines right under a command
 * (no blank line between) are what it prints. docs/development.md ("Docs that
 * run") states the rules for writers; `outputMatches` compares.
 */

/** The info-string languages run as shell; any other fence is prose to us. */
const shellLanguages = new Set(["sh", "bash", "shell", "zsh"]);

/** The word in a fence's info string that keeps a shell block from running (`sh no-run`). */
export const noRunMark = "no-run";

export interface DocCommand {
  /** 1-based line of the page where the command starts. */
  line: number;
  /** The command as written, continuation lines included. */
  text: string;
  /** What the command prints, from the comment lines under it; undefined when none. */
  output?: string;
}

export interface DocBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** False for a block marked `no-run`. */
  runs: boolean;
  commands: DocCommand[];
}

/** Every shell block of a page, in order, `no-run` ones included (with `runs: false`). */
export function shellBlocksOf(page: string, markdown: string): DocBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(lines[i]!);
    if (!fence) continue;
    const [, indent, marker, language, rest] = fence;
    const body: string[] = [];
    let end = i + 1;
    // A closing fence is the opening's characters alone (CommonMark): a line with an info string is inside the block.
    const closes = (line: string) => line.trim().startsWith(marker!) && /^[`~]+$/.test(line.trim());
    while (end < lines.length && !closes(lines[end]!)) body.push(lines[end++]!.slice(indent!.length));
    if (shellLanguages.has(language!.toLowerCase())) {
      const words = rest!.trim().split(/\s+/);
      blocks.push({ page, line: i + 1, runs: !words.includes(noRunMark), commands: commandsOf(body, i + 2) });
    }
    i = end;
  }
  return blocks;
}

/**
 * Splits a block's lines into commands. A command goes on past its line
 * while a quote is open, the line ends in `\`, `|`, `&&` or `||`. A comment
 * line right under a command is its output; a blank line or another command
 * ends the output, and a comment after a blank line is prose.
 */
export function commandsOf(lines: readonly string[], firstLine = 1): DocCommand[] {
  const commands: DocCommand[] = [];
  let current: { line: number; text: string[] } | undefined;
  let quote: Quote = "none";
  let outputOf: DocCommand | undefined;
  for (const [index, line] of lines.entries()) {
    if (current) {
      current.text.push(line);
      // A note inside a pipeline or a chain goes with it: the command goes on after it.
      if (quote === "none" && line.trim().startsWith("#")) continue;
    } else if (line.trim() === "") {
      outputOf = undefined;
      continue;
    } else if (line.trim().startsWith("#")) {
      if (outputOf) outputOf.output = [outputOf.output, line.trim().replace(/^# ?/, "")].filter((part) => part !== undefined).join("\n");
      continue;
    } else {
      current = { line: firstLine + index, text: [line] };
    }
    const scanned = scanLine(line, quote);
    quote = scanned.quote;
    if (quote !== "none" || scanned.continues) continue;
    outputOf = { line: current.line, text: current.text.join("\n") };
    commands.push(outputOf);
    current = undefined;
  }
  if (current) throw new Error(`line ${current.line}: the command does not end (an open quote or a trailing \\)`);
  return commands;
}

type Quote = "none" | "single" | "double";

/** Where a line leaves the quoting, and whether its code (before a comment) asks for the next line. */
function scanLine(line: string, quote: Quote): { quote: Quote; continues: boolean } {
  let code = "";
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "single") {
      if (char === "'") quote = "none";
    } else if (char === "\\") {
      if (i === line.length - 1) return { quote, continues: quote === "none" };
      i++;
    } else if (quote === "double") {
      if (char === '"') quote = "none";
    } else if (char === "'") {
      quote = "single";
    } else if (char === '"') {
      quote = "double";
    } else if (char === "#" && (i === 0 || /[\s;&|(]/.test(line[i - 1]!))) {
      break;
    }
    if (quote === "none") code += char;
  }
  return { quote, continues: quote === "none" && /(\||&&)\s*$/.test(code) };
}

/**
 * Whether a command printed what its page says. Whitespace is ignored on
 * both sides (the page may space a JSON answer out), and `…` in the page
 * stands for any text, line breaks included; the rest must match exactly.
 */
export function outputMatches(written: string, printed: string): boolean {
  const pieces = written.replace(/\s+/g, "").split("…");
  const text = printed.replace(/\s+/g, "");
  // Leftmost matching is right when `…` is the only wildcard: the first piece is a prefix, the last a suffix, and each
  // one between is found after the one before. Linear, where a regular expression of lazy wildcards backtracks for
  // seconds on a long answer that does not match.
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  if (pieces.length === 1) return text === first;
  if (!text.startsWith(first) || !text.endsWith(last) || text.length < first.length + last.length) return false;
  let cursor = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const at = text.indexOf(piece, cursor);
    if (at === -1 || at + piece.length > end) return false;
    cursor = at + piece.length;
  }
  return true;
}

/** Whether a page's output says nothing but "anything": a check that cannot fail, refused. */
export function saysNothing(written: string): boolean {
  return written.replace(/[\s…]/g, "") === "";
}
