import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorCodes } from "../src/index.ts";

/**
 * A client switches on `error.code`, so every code a service may answer
 * has a row in an error table of the docs: api.md's "Errors" (the
 * shortener's and the gateway's) or geocoder.md's (the geocoder's).
 */

const docs = join(import.meta.dir, "../../docs");

/** The code cells of the tables under a page's "## Errors", up to the next section. */
function tabledCodes(page: string): Set<string> {
  const text = readFileSync(join(docs, page), "utf8");
  const start = text.indexOf("\n## Errors\n");
  const end = text.indexOf("\n## ", start + 1);
  const rows = text
    .slice(start, end === -1 ? undefined : end)
    .split("\n")
    .filter((line) => line.startsWith("|"));
  return new Set(rows.flatMap((row) => [...(row.split("|").at(-2) ?? "").matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!)));
}

test("every error code has a row in api.md's or geocoder.md's error table", () => {
  const tabled = new Set([...tabledCodes("api.md"), ...tabledCodes("geocoder.md")]);
  expect(errorCodes.filter((code) => !tabled.has(code))).toEqual([]);
});
