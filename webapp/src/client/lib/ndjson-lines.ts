/**
 * The lines of an NDJSON answer as they arrive, each parsed: an import's
 * answer streams a line per row refused and a summary last, so a long file
 * shows its progress while it runs. A line that is not JSON is skipped (the
 * answer is the server's, but read as hostile all the same), and so is a
 * line past `maxLineLength`, dropped as it arrives rather than kept whole.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>, maxLineLength = 1_000_000): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let partial = "";
  let tooLong = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const pieces = (partial + decoder.decode(value, { stream: true })).split("\n");
      partial = pieces.pop() ?? "";
      for (const piece of pieces) {
        if (!tooLong) {
          const parsed = parsedLine(piece);
          if (parsed !== undefined) yield parsed;
        }
        tooLong = false;
      }
      if (partial.length > maxLineLength) {
        partial = "";
        tooLong = true;
      }
    }
    if (!tooLong) {
      const parsed = parsedLine(partial);
      if (parsed !== undefined) yield parsed;
    }
  } finally {
    // Left early (the page stopped reading): the rest of the answer is not wanted.
    void reader.cancel().catch(() => {});
  }
}

function parsedLine(line: string): unknown {
  if (line.trim() === "") return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
