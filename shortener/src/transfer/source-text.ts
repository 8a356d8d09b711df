import { maxTags, maxTitleLength } from "../links/link-options.ts";

/**
 * Another tool's tags as ours: lower case, runs of anything but a-z 0-9 _ -
 * made one `-` ("Marketing Q1" is `marketing-q1`), at most 32 characters;
 * empty ones dropped, duplicates once, the first ten kept. Our own export's
 * tags come through unchanged. A tag a link could not have never costs the
 * link its import.
 */
export function importedTags(tags: readonly string[]): string[] {
  const kept = tags
    .map((tag) =>
      tag
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 32),
    )
    .filter((tag) => tag !== "");
  return [...new Set(kept)].slice(0, maxTags);
}

/** Another tool's title as ours: control characters (a line break in a CSV field) made spaces, at most 200 characters. */
export function importedTitle(title: string): string {
  return [...title.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")].slice(0, maxTitleLength).join("");
}
