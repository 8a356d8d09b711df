import { PayloadTooLarge, UnsupportedMediaType } from "./http-error.ts";

/** A file read as text (an import's upload or file, the geocoder's CSV): its start (for guessing the format), and all of it, start included, chunk by chunk. */
export interface UploadText {
  head: string;
  chunks: AsyncIterable<string>;
}

/** How much of a file is read before anything is imported: its first line, or this many characters. */
export const headChars = 64 * 1024;

export const binaryFile = () => UnsupportedMediaType.because("the file is binary (it holds NUL bytes): send CSV or NDJSON as UTF-8 text");
export const notUtf8 = () => UnsupportedMediaType.because("the file is not UTF-8 text: send CSV or NDJSON as UTF-8");

/** What a file's fault on `line` is answered with: where it is, and, past the first line, that the lines before it were read. */
function faultOn(line: number, problem: "nul" | "not-utf8"): UnsupportedMediaType {
  if (line === 1) return problem === "nul" ? binaryFile() : notUtf8();
  const what = problem === "nul" ? "holds a NUL byte (the file is binary)" : "is not UTF-8 text";
  return UnsupportedMediaType.because(`line ${line} ${what}: the lines before it were read; send CSV or NDJSON as UTF-8 text`);
}

/**
 * The text of an uploaded file, read as the import asks for it, never past
 * `maxBytes` (PayloadTooLarge), and never binary: a NUL byte or bytes that
 * are not UTF-8 are UnsupportedMediaType, naming their line. Its first line
 * is read at once, so a binary file, or one of no known format, is refused
 * before any answer is sent. A fault further in ends the text there, but
 * only after every whole line before it: the lines of a chunk that come
 * before its bad byte are read as any others (an import stores them), and
 * the fault is thrown on the next read. Stopping early cancels the body, so
 * the rest is not read.
 */
export async function uploadText(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<UploadText> {
  const reader = body.getReader();
  // Each call decodes whole characters (a cut one is carried to the next), so none keeps state; a BOM is the file's first character only.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let size = 0;
  let finished = false;
  // The bytes of a character cut by the end of a chunk, decoded with the next one.
  let carried = new Uint8Array(0);
  // Line breaks decoded so far: the line a fault is on.
  let lineBreaks = 0;
  // Whether the file's first bytes were decoded (a BOM may only stand there).
  let started = false;
  let fault: Error | undefined;
  const stop = () => void reader.cancel().catch(() => {});
  const next = async (): Promise<string | undefined> => {
    if (fault) throw fault;
    const read = await reader.read();
    if (read.done) finished = true;
    else {
      size += read.value.byteLength;
      if (size > maxBytes) throw PayloadTooLarge.over(maxBytes);
    }
    const bytes = read.done ? carried : joined(carried, read.value);
    const end = read.done ? bytes.length : wholeCharactersEnd(bytes);
    carried = bytes.slice(end);
    const decoded = decodedLines(decoder, bytes.subarray(0, end));
    const text = started ? decoded.text : decoded.text.replace(/^\uFEFF/, "");
    if (end > 0) started = true;
    lineBreaks += countOf("\n", text);
    if (decoded.problem) {
      fault = faultOn(lineBreaks + 1, decoded.problem);
      if (text === "") throw fault;
    }
    return text;
  };

  let head = "";
  try {
    while (!finished && !head.includes("\n") && head.length < headChars) head += (await next()) ?? "";
  } catch (error) {
    stop();
    throw error;
  }
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield head;
      while (!finished || fault) {
        const text = await next();
        if (text) yield text;
      }
    } finally {
      if (!finished) stop();
    }
  }
  return { head, chunks: chunks() };
}

/**
 * Whole lines' text, or, where a NUL byte or bytes that are not UTF-8 stand,
 * the text of the whole lines before them and what is wrong. Whole: `bytes`
 * ends on a character's end (wholeCharactersEnd).
 */
function decodedLines(decoder: TextDecoder, bytes: Uint8Array): { text: string; problem?: "nul" | "not-utf8" } {
  const nul = bytes.indexOf(0);
  if (nul === -1) {
    try {
      return { text: decoder.decode(bytes) };
    } catch {
      // Found below, line by line.
    }
  }
  let text = "";
  for (let start = 0; start < bytes.length; ) {
    const lineEnd = bytes.indexOf(0x0a, start);
    const end = lineEnd === -1 ? bytes.length : lineEnd + 1;
    if (nul !== -1 && nul < end) return { text, problem: "nul" };
    try {
      text += decoder.decode(bytes.subarray(start, end));
    } catch {
      return { text, problem: "not-utf8" };
    }
    start = end;
  }
  return { text };
}

/** Where the last whole UTF-8 character of `bytes` ends: before a lead byte whose continuation bytes are still to come. */
function wholeCharactersEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function joined(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (first.length === 0) return second;
  const bytes = new Uint8Array(first.length + second.length);
  bytes.set(first);
  bytes.set(second, first.length);
  return bytes;
}

function countOf(character: string, text: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++;
  return count;
}
