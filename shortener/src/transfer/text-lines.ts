/**
 * The lines of a text as it arrives, in chunks of any size: each without
 * its LF or CRLF, numbered from 1, a BOM at the start dropped. Holds one
 * line at a time.
 */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<{ line: number; text: string }> {
  let buffer = "";
  let line = 0;
  let started = false;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    buffer += started ? chunk : chunk.replace(/^\uFEFF/, "");
    started = true;
    let from = 0;
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n", from)) {
      yield { line: ++line, text: withoutCr(buffer.slice(from, newline)) };
      from = newline + 1;
    }
    buffer = buffer.slice(from);
  }
  if (buffer !== "") yield { line: ++line, text: withoutCr(buffer) };
}

function withoutCr(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}
