import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// Each service's doc opens with a table of its src/ folders: a folder the
// table does not name is a part of the tree a newcomer cannot find.
const repositoryRoot = join(import.meta.dir, "..", "..");

test.each(["shortener", "gateway", "geocoder"])("docs/%s.md names every folder of %s/src in its layout table", (service) => {
  const folders = readdirSync(join(repositoryRoot, service, "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const doc = readFileSync(join(repositoryRoot, "docs", `${service}.md`), "utf8");
  expect(folders.filter((folder) => !doc.includes(`| \`${folder}/\` |`))).toEqual([]);
});

test("docs/development.md names every layer of shared/src in its table", () => {
  const folders = readdirSync(join(repositoryRoot, "shared", "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const doc = readFileSync(join(repositoryRoot, "docs", "development.md"), "utf8");
  expect(folders.filter((folder) => !doc.includes(`| \`${folder}/\` |`))).toEqual([]);
  expect(folders.length).toBeGreaterThan(5);
});
