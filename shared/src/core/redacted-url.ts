/**
 * A URL from the configuration as it may be printed: the password (or a
 * lone user part, which may be one) replaced with `***`, and the query,
 * where a client may read options such as a password, left out.
 * `redis://:hunter2@cache:6379/1?family=6` → `redis://:***@cache:6379/1?…`.
 */
export function redactedUrl(raw: string): string {
  return (
    raw
      // The authority's user part runs to its last `@` (a password may hold an `@`); it ends at the first `/`, `?` or `#`.
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string, userinfo: string) => {
        const colon = userinfo.indexOf(":");
        return `${scheme}${colon === -1 ? "***" : `${userinfo.slice(0, colon)}:***`}@`;
      })
      .replace(/[?#][\s\S]*$/, "?…")
  );
}
