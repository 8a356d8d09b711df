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

/**
 * The text of an uploaded file, read as the import asks for it, never past
 * `maxBytes` (PayloadTooLarge), and never binary: a NUL byte or bytes that
 * are not UTF-8 are UnsupportedMediaType. Its first line is read at once,
 * so a binary file, or one of no known format, is refused before any
 * answer is sent; a fault further in ends the import where it is found.
 * Stopping early cancels the body, so the rest is not read.
 */
export async function uploadText(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<UploadText> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let size = 0;
  let finished = false;
  const stop = () => void reader.cancel().catch(() => {});
  const next = async (): Promise<string | undefined> => {
    const read = await reader.read();
    if (read.done) {
      finished = true;
      return decoded(() => decoder.decode());
    }
    size += read.value.byteLength;
    if (size > maxBytes) throw PayloadTooLarge.over(maxBytes);
    if (read.value.includes(0)) throw binaryFile();
    return decoded(() => decoder.decode(read.value, { stream: true }));
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
      while (!finished) {
        const text = await next();
        if (text) yield text;
      }
    } finally {
      if (!finished) stop();
    }
  }
  return { head, chunks: chunks() };
}

function decoded(decode: () => string): string {
  try {
    return decode();
  } catch {
    throw notUtf8();
  }
}
