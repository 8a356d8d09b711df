import { JsonTooDeep, parseJson } from "@linkgeo/shared";
import type { ImportParser } from "./import-record.ts";
import { importRecordOf } from "./linkgeo-record.ts";
import { textLines } from "./text-lines.ts";

/**
 * Longer lines are reported, not read: our export's longest line (two URLs
 * and twenty rules' URLs of 2048 characters, each escaped by JSON) is about
 * 92,000 characters; a longer one would only cost memory and time.
 */
export const maxNdjsonLineLength = 262_144;

/** Our own NDJSON export (GET /admin/export/links?format=ndjson): one link per line; blank lines are skipped. */
export const parseLinkgeoNdjson: ImportParser = async function* (chunks) {
  for await (const read of textLines(chunks, maxNdjsonLineLength)) {
    const { line } = read;
    if ("tooLong" in read) {
      yield { line, problem: `the line is longer than ${maxNdjsonLineLength} characters` };
      continue;
    }
    if (read.text.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJson(read.text);
    } catch (error) {
      yield { line, problem: error instanceof JsonTooDeep ? `the line ${error.message}` : "not valid JSON" };
      continue;
    }
    yield importRecordOf(line, value);
  }
};
