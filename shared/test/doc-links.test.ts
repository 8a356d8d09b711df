import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

// A link in the docs that leads nowhere sends a reader to a page or a
// section that moved: every relative link of README.md and docs/*.md must
// reach a file, and every #anchor a heading of that file.
const repositoryRoot = join(import.meta.dir, "..", "..");
const pages = [
  "README.md",
  ...readdirSync(join(repositoryRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower-cased, punctuation but `-` and `_` dropped, each space a `-`. */
function anchorOf(heading: string): string {
  const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** A page's lines outside fenced code blocks, where links and headings are markdown. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The anchors of a page's headings, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const anchor = anchorOf(heading[1] ?? "");
    const times = seen.get(anchor) ?? 0;
    anchors.add(times === 0 ? anchor : `${anchor}-${times}`);
    seen.set(anchor, times + 1);
  }
  return anchors;
}

/** The targets of a page's inline links (`[text](target)`), outside code. */
function linkTargets(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => [...line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? ""));
}

/** Why a link of `page` leads nowhere, or null when it reaches its file and heading. */
function brokenLink(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // http:, mailto: — not ours to check
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? join(repositoryRoot, page) : join(repositoryRoot, dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${page}: ${target} (no file ${relative(repositoryRoot, file)})`;
  if (anchor === undefined) return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return `${page}: ${target} (an anchor in a file that has no headings)`;
  return anchorsOf(readFileSync(file, "utf8")).has(decodeURIComponent(anchor)) ? null : `${page}: ${target} (no such heading)`;
}

describe("anchorOf", () => {
  test.each([
    ["Visits that led nowhere", "visits-that-led-nowhere"],
    ["The gateway", "the-gateway"],
    ["`IMPORT_MAX_BYTES`, and 401/403", "import_max_bytes-and-401403"],
    ["Reads on Postgres replicas (and why)", "reads-on-postgres-replicas-and-why"],
    ["See [Errors](api.md#errors)", "see-errors"],
  ])("%s is #%s", (heading, anchor) => {
    expect(anchorOf(heading)).toBe(anchor);
  });
});

test("a repeated heading's anchor is numbered, and a heading inside a code block is none", () => {
  expect(anchorsOf("# Limits\n\n## Limits\n\n```sh\n# not a heading\n```\n")).toEqual(new Set(["limits", "limits-1"]));
});

test.each(pages)("every relative link and #anchor of %s leads to a file and a heading", (page) => {
  const targets = linkTargets(readFileSync(join(repositoryRoot, page), "utf8"));
  expect(targets.map((target) => brokenLink(page, target)).filter((broken) => broken !== null)).toEqual([]);
});

test("the pages are read and their links found", () => {
  expect(pages.length).toBeGreaterThan(10);
  expect(linkTargets(readFileSync(join(repositoryRoot, "README.md"), "utf8"))).toContain("docs/api.md");
});
