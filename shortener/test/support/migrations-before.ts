import { expect } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A copy of an engine's migrations that stops before `tag`: a release
 * before it, for a test of that migration on a database it wrote. The
 * copy's folder is added to `folders`, which the test removes after.
 */
export function migrationsBefore(engine: "postgres" | "sqlite", tag: string, folders: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), "migrations-"));
  folders.push(folder);
  cpSync(new URL(`../../src/storage/${engine}/migrations`, import.meta.url).pathname, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return folder;
}
