/**
 * Whether a read asks for what is on the primary now, not a replica's copy
 * a moment old: `Cache-Control: no-cache` (what a browser sends on a hard
 * reload, and the web app after its own writes), or the older
 * `Pragma: no-cache`.
 */
export function asksForFresh(headers: Headers): boolean {
  // HTTP's optional whitespace is spaces and tabs only.
  const noCache = /(^|,)[ \t]*no-cache[ \t]*(,|$)/i;
  return noCache.test(headers.get("cache-control") ?? "") || noCache.test(headers.get("pragma") ?? "");
}
