import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

// The web app's shape, as issue 46 set it: every page a component wired by
// one lookup of its root, and no function a reader cannot hold at once.

const src = join(import.meta.dir, "..", "..", "src");
const sourceFiles = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => join(entry.parentPath, entry.name));

/** Every function of `text` (declarations, methods, arrows, templates' closures) longer than `maxLines`, as "lines path:line". */
function longFunctions(path: string, text: string, maxLines: number): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = file.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > maxLines) found.push(`${lines} lines ${relative(src, path)}:${first + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The id lookups in a script: getElementById, byId, a selector that starts from an id. */
function idLookups(path: string, text: string): string[] {
  const lookups = [...text.matchAll(/getElementById\(|\bbyId\(|querySelector(?:All)?\(\s*[`"']#/g)];
  return lookups.map((match) => `${relative(src, path)}:${text.slice(0, match.index).split("\n").length}`);
}

describe("the web app's shape", () => {
  test("no function is over 80 lines", () => {
    expect(sourceFiles.flatMap((path) => longFunctions(path, readFileSync(path, "utf8"), 80))).toEqual([]);
  });

  test("a page's script finds its elements under its root: the root is the one element looked up by id", () => {
    // rootOf, and the theme menu's script: it runs in <head> as a classic script that imports nothing, its menu its whole root.
    const rootLookups = [join(src, "client", "lib", "find-parts.ts"), join(src, "client", "theme.ts")];
    const scripts = sourceFiles.filter((path) => !rootLookups.includes(path) && (path.includes("/client/") || path.endsWith("script.ts")));
    expect(scripts.flatMap((path) => idLookups(path, readFileSync(path, "utf8")))).toEqual([]);
  });

  test("the checks find what they look for", () => {
    const long = `function f() {\n${"  x();\n".repeat(80)}}\nconst g = () => 1;`;
    expect(longFunctions(join(src, "x.ts"), long, 80)).toEqual(["82 lines x.ts:1"]);
    expect(
      idLookups(join(src, "x.ts"), 'a();\nbyId("x");\ndocument.getElementById("y");\nroot.querySelector("#z");\nroot.querySelector("[data-part=a]");'),
    ).toEqual(["x.ts:2", "x.ts:3", "x.ts:4"]);
  });
});
