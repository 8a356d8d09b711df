/**
 * The cookie that carries an admin's session id in the web app over plain
 * HTTP (development). Set and read by the shortener; named here because the
 * gateway passes it, and no other cookie, to the shortener (see the
 * gateway's upstream-credentials.ts).
 */
export const adminSessionCookieName = "linkgeo_admin";

/**
 * The same cookie where it is Secure (NODE_ENV=production, HTTPS). Browsers
 * keep a `__Host-` cookie only when it is Secure, has `Path=/` and no
 * `Domain`, so no page can set one on a narrower path or for a parent
 * domain beside ours, and no page served over plain HTTP can set one at all.
 */
export const hostOnlyAdminSessionCookieName = `__Host-${adminSessionCookieName}`;

/** Both names: the gateway passes either on, not knowing how the shortener runs. */
export const adminSessionCookieNames: readonly string[] = [adminSessionCookieName, hostOnlyAdminSessionCookieName];

/** The cookie that carries a person's sign-in (POST /login) in a browser, over plain HTTP; the same rules as the admin's. */
export const personSessionCookieName = "linkgeo_person";

/** The same cookie where it is Secure (HTTPS): `__Host-`, as the admin's. */
export const hostOnlyPersonSessionCookieName = `__Host-${personSessionCookieName}`;

/** Every session cookie the shortener reads, an admin's and a person's, under either name: all the gateway passes on. */
export const sessionCookieNames: readonly string[] = [...adminSessionCookieNames, personSessionCookieName, hostOnlyPersonSessionCookieName];

/**
 * Every value of the cookie `name` in a Cookie header, in the order sent,
 * without the double quotes RFC 6265 allows around a value; empty values are
 * left out. A browser keeps one cookie per name, host *and path* and sends
 * them all, so a name may come several times.
 *
 * The header is the client's: any text, any length, any number of pairs;
 * this never throws and decodes nothing.
 */
export function cookieValues(cookieHeader: string | null, name: string): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    const unquoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    if (unquoted !== "") values.push(unquoted);
  }
  return values;
}
