import { describe, expect, test } from "bun:test";
import { uploadText } from "../src/index.ts";

/** A stream of `bytes` cut at `cuts`. */
const streamOf = (bytes: Uint8Array, cuts: number[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        controller.enqueue(bytes.slice(from, cut));
        from = cut;
      }
      controller.close();
    },
  });

/** Every way to cut `bytes` in two, and in three around the middle. */
const cutsOf = (bytes: Uint8Array) => [
  [],
  ...Array.from({ length: bytes.length - 1 }, (_, i) => [i + 1]),
  ...Array.from({ length: bytes.length - 2 }, (_, i) => [i + 1, i + 2]),
];

/** What the upload's chunks give, whole, and the error they end with, if any. */
async function read(bytes: Uint8Array, cuts: number[]): Promise<{ text: string; error?: string }> {
  const upload = await uploadText(streamOf(bytes, cuts), 1 << 20);
  let text = "";
  try {
    for await (const chunk of upload.chunks) text += chunk;
  } catch (error) {
    return { text, error: (error as Error).message };
  }
  return { text };
}

describe("an uploaded file read as text", () => {
  test("reads characters cut by any chunk boundary whole; a BOM is dropped only as the file's first character", async () => {
    const text = "a,é\nb,€\nc,😀\n\uFEFFd\n";
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    const wrong = [];
    for (const cuts of cutsOf(bytes)) {
      const got = await read(bytes, cuts);
      if (got.text !== text || got.error) wrong.push({ cuts, got });
    }
    expect(wrong).toEqual([]);
  });

  // A chunk that ends before the bad byte may give the start of its line first: that line is never ended, so no reader takes it.
  test("a bad byte further in ends the text after every whole line before it, wherever the chunks are cut, naming its line", async () => {
    const encoder = new TextEncoder();
    for (const [bad, problem] of [
      [[0xe9], "is not UTF-8 text"],
      [[0xc3], "is not UTF-8 text"],
      [[0], "holds a NUL byte (the file is binary)"],
    ] as const) {
      const bytes = new Uint8Array([...encoder.encode("one\ntwo,é\nthr"), ...bad, ...encoder.encode("ee\nfour\n")]);
      const wrong = [];
      for (const cuts of cutsOf(bytes)) {
        const got = await read(bytes, cuts);
        const error = `line 3 ${problem}: the lines before it were read; send CSV or NDJSON as UTF-8 text`;
        const ended = got.text.slice(0, got.text.lastIndexOf("\n") + 1);
        if (ended !== "one\ntwo,é\n" || !"thr".startsWith(got.text.slice(ended.length)) || got.error !== error) wrong.push({ cuts, got });
      }
      expect({ bad, wrong }).toEqual({ bad, wrong: [] });
    }
  });

  test("a file cut in the middle of its last character is not UTF-8", async () => {
    const bytes = new TextEncoder().encode("one\ntwo,€").slice(0, -1);
    expect(await read(bytes, [5])).toEqual({
      text: "one\ntwo,",
      error: "line 2 is not UTF-8 text: the lines before it were read; send CSV or NDJSON as UTF-8 text",
    });
  });
});
