/**
 * Whether an answer should be a page for a person rather than JSON for a
 * program: a browser's navigation names text/html in its Accept (API
 * clients send application/json, or accept any type as curl does). One rule for the
 * shortener's visitor pages and the gateway's own error pages.
 */
export function prefersHtml(accept: string | null): boolean {
  return accept?.includes("text/html") ?? false;
}
