import { JsonTooDeep, parseJson } from "@linkgeo/shared";
import type { ImportParser } from "./import-record.ts";
import { importRecordOf } from "./linkgeo-record.ts";
import { textLines } from "./text-lines.ts";

/** Our own NDJSON export (GET /admin/export/links?format=ndjson): one link per line; blank lines are skipped. */
export const parseLinkgeoNdjson: ImportParser = async function* (chunks) {
  for await (const { line, text } of textLines(chunks)) {
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (error) {
      yield { line, problem: error instanceof JsonTooDeep ? `the line ${error.message}` : "not valid JSON" };
      continue;
    }
    yield importRecordOf(line, value);
  }
};
