import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

// Each service's source is a stack of rooms: the folders and files right
// under its src/ (links/, visits/, config.ts…). An import may go down the
// stack, never back up: two rooms that import each other, through any
// files, are one tangle a reader cannot take apart. This reads every
// relative import of the source (tests aside) and looks for rooms that
// reach each other.

const repositoryRoot = join(import.meta.dir, "..", "..");

/** Every .ts file under `folder`, as paths relative to it. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/**
 * The relative modules a file imports or re-exports, as TypeScript's own
 * pre-processor finds them (static and type-only imports, `export … from`,
 * `import("…")`, `require`), never words in comments or strings. An
 * `import()` of anything but a plain string would hide an arrow: it throws.
 */
function relativeImports(source: string): string[] {
  if (/(?<![\w.$])import\(\s*[^"'\s)]/.test(source)) throw new Error("an import() of something other than a plain string: its arrow cannot be read");
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return [...new Set(importedFiles.map((file) => file.fileName).filter((name) => name === ".." || name.startsWith("./") || name.startsWith("../")))];
}

/**
 * The room a file of `src/` is in: its first folder, or the file itself; the
 * web app's `client/lib/` (the browser's kit, under every component) is a
 * room apart from `client/`'s page entries (which mount the components).
 */
const roomOf = (path: string) => (path.startsWith("client/lib/") ? "client/lib" : path.split("/")[0]!);

/** Rooms → the rooms their files import, for the source under `src`. */
function roomArrows(src: string): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = roomOf(file);
    for (const target of relativeImports(readFileSync(join(src, file), "utf8"))) {
      const path = relative(src, resolve(dirname(join(src, file)), target));
      if (path.startsWith("..")) continue;
      const to = roomOf(path);
      if (to === from) continue;
      if (!arrows.has(from)) arrows.set(from, new Set());
      arrows.get(from)!.add(to);
    }
  }
  return arrows;
}

/** The groups of two or more rooms that reach each other (strongly connected, Tarjan's algorithm), each sorted. */
function tangles(arrows: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const visit = (room: string) => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    onStack.add(room);
    for (const to of arrows.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(member);
      if (member === room) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const room of new Set([...arrows.keys(), ...[...arrows.values()].flatMap((to) => [...to])])) if (!index.has(room)) visit(room);
  return groups.sort((a, b) => a.join().localeCompare(b.join()));
}

describe("imports run down each service's stack of rooms", () => {
  test.each([
    ["gateway/src", []],
    ["geocoder/src", []],
    ["shared/src", []],
    ["shortener/src", []],
    ["webapp/src", []],
  ] as const)("%s: no rooms that import each other", (src, none) => {
    expect(tangles(roomArrows(join(repositoryRoot, src)))).toEqual([...none]);
  });

  test("shared/src: the browser's layers (wire, csv) import nothing beyond themselves, and the browser's code no other layer", () => {
    const shared = join(repositoryRoot, "shared/src");
    for (const layer of ["wire", "csv"]) {
      for (const file of sourceFiles(join(shared, layer))) {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(shared, layer, file), "utf8"), true, true);
        expect({ file: `${layer}/${file}`, imports: importedFiles.map((imported) => imported.fileName).filter((name) => !name.startsWith("./")) }).toEqual({
          file: `${layer}/${file}`,
          imports: [],
        });
      }
    }
    const client = join(repositoryRoot, "webapp/src/client");
    const sharedImports = sourceFiles(client).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(client, file), "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.includes("shared")),
    );
    expect(new Set(sharedImports)).toEqual(new Set(["@linkgeo/shared/wire", "@linkgeo/shared/csv"]));
  });

  test("the reader finds a tangle: two rooms that import each other through different files", () => {
    const arrows = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(tangles(arrows)).toEqual([["a", "b", "c"]]);
    expect(
      relativeImports(
        `import {\n  x,\n} from "./x.ts";\nexport * from "../y/y.ts";\nimport type { Z } from "@linkgeo/shared";\nconst w = await import("./w.ts");\n// from "../comment.ts"\nconst s = 'import "../string.ts"';`,
      ),
    ).toEqual(["./x.ts", "../y/y.ts", "./w.ts"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of an import() of a template, as a file holds it
    expect(() => relativeImports("const m = await import(`../links/${name}.ts`);")).toThrow("an import() of something other than a plain string");
  });
});
