import { maxTags, maxTitleLength, tagPattern } from "../links/link-options.ts";

/**
 * Another tool's tags as ours: lower case, runs of anything but a-z 0-9 _ -
 * made one `-` ("Marketing Q1" is `marketing-q1`, no `-` at the ends), at
 * most 32 characters; empty ones dropped, duplicates once, the first ten
 * kept. A tag already in our shape (any case), as our own export's are,
 * comes through unchanged, a `-` at either end included (`-2-3`). A tag a link could not have never costs the
 * link its import.
 */
export function importedTags(tags: readonly string[]): string[] {
  const kept = tags
    .map((tag) => tag.toLowerCase())
    .map((tag) =>
      tagPattern.test(tag)
        ? tag
        : tag
            .replace(/[^a-z0-9_-]+/g, "-")
            .replace(/^-+|-+$/g, "")
            .slice(0, 32),
    )
    .filter((tag) => tag !== "");
  return [...new Set(kept)].slice(0, maxTags);
}

/**
 * Another tool's title as ours: control characters (a line break in a CSV
 * field, a NUL, which Postgres' text refuses) made spaces, a lone UTF-16
 * surrogate (valid JSON, not Unicode) made U+FFFD, at most 200 characters.
 */
export function importedTitle(title: string): string {
  return [...title.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").toWellFormed()].slice(0, maxTitleLength).join("");
}
