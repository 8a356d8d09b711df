/** Every `$ref` in `document` that does not point at a component the document defines. */
export function unresolvedRefs(document: { components?: Record<string, Record<string, unknown> | undefined> }): string[] {
  const missing: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") {
        const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(child);
        const name = match?.[2]?.replaceAll("~1", "/").replaceAll("~0", "~");
        if (!match || name === undefined || document.components?.[match[1]!]?.[name] === undefined) missing.push(child);
      } else visit(child);
    }
  };
  visit(document);
  return missing;
}
