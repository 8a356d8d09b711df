import { describe, expect, test } from "bun:test";
import { ndjsonLines } from "../../src/client/lib/ndjson-lines.ts";

/** A body that arrives in these pieces, as a streamed answer does. */
function body(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>, maxLineLength?: number): Promise<unknown[]> {
  const lines: unknown[] = [];
  for await (const line of ndjsonLines(stream, maxLineLength)) lines.push(line);
  return lines;
}

describe("the lines of an NDJSON answer", () => {
  test("a line split across pieces, or a letter split across its bytes, is read whole; the last line needs no newline", async () => {
    const bytes = new TextEncoder().encode('{"reason":"café"}\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"line":3,"sta'));
        controller.enqueue(new TextEncoder().encode('tus":"skipped"}\n'));
        // "é" is two bytes: the piece ends between them.
        const cut = bytes.indexOf(0xc3) + 1;
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.enqueue(new TextEncoder().encode('{"summary":{"lines":4}}'));
        controller.close();
      },
    });
    expect(await all(stream)).toEqual([{ line: 3, status: "skipped" }, { reason: "café" }, { summary: { lines: 4 } }]);
  });

  test("a line that is not JSON, and blank lines, are skipped; the lines after them are read", async () => {
    expect(await all(body("<html>\n", "\n", "  \n", '{"ok":true}\r\n', "{broken\n", "[1]\n"))).toEqual([{ ok: true }, [1]]);
  });

  test("a line longer than the limit is dropped as it arrives, never kept whole", async () => {
    const long = `{"reason":"${"x".repeat(50)}"}`;
    expect(await all(body(long.slice(0, 30), long.slice(30), '\n{"after":1}\n'), 20)).toEqual([{ after: 1 }]);
  });
});
