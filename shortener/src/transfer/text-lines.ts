/** A line of a text: its text, or only its number when it was longer than the reader keeps. */
export type TextLine = { line: number; text: string } | { line: number; tooLong: true };

/**
 * The lines of a text as it arrives, in chunks of any size: each without
 * its LF or CRLF, numbered from 1, a BOM at the start dropped. Holds one
 * line at a time, and at most `maxLength` characters of it: a longer line
 * is dropped as it comes and answered as `tooLong`, so memory stays
 * bounded and no chunk is scanned again, whatever the text holds.
 */
export async function* textLines(chunks: AsyncIterable<string>, maxLength: number): AsyncGenerator<TextLine> {
  let buffer = "";
  let line = 0;
  let started = false;
  // The current line grew past maxLength: what is left of it is dropped up to its end.
  let dropping = false;
  const ended = (text: string): TextLine => {
    const kept = withoutCr(text);
    return dropping || kept.length > maxLength ? { line: ++line, tooLong: true } : { line: ++line, text: kept };
  };
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    // The buffer holds no LF: only what this chunk adds is searched.
    const searchFrom = buffer.length;
    buffer += started ? chunk : chunk.replace(/^\uFEFF/, "");
    started = true;
    let from = 0;
    for (let newline = buffer.indexOf("\n", searchFrom); newline !== -1; newline = buffer.indexOf("\n", from)) {
      yield ended(buffer.slice(from, newline));
      dropping = false;
      from = newline + 1;
    }
    buffer = buffer.slice(from);
    // Past maxLength and a CR that may end it: the line is too long, whatever follows.
    if (buffer.length > maxLength + 1) {
      dropping = true;
      buffer = "";
    }
  }
  if (buffer !== "" || dropping) yield ended(buffer);
}

function withoutCr(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}
