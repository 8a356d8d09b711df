import { shortCodeIn } from "@linkgeo/shared";

/**
 * Which upstream answers a request, and which rate limit it counts against.
 * A password try on a protected link (`unlock`) names the link, whose budgets it spends.
 * `checksKey`: the shortener checks the credential before anything else there,
 * so an API key may draw on a budget of its own (rate-limit/api-key-budgets.ts).
 * `asksCode`: an API read anyone may make of one link by its code (its record,
 * its stats), whose "no such link" is a miss, as a redirect's is
 * (rate-limit/miss-budgets.ts): a prober may not guess codes there instead.
 */
export type GatewayRoute =
  | { upstream: "shortener" | "geocoder"; limit: "create" | "bulk" | "api" | "redirect" | "login"; checksKey?: true; asksCode?: string }
  | { upstream: "shortener"; limit: "unlock"; link: string; checksKey?: never; asksCode?: never };

const shortenerApi: GatewayRoute = { upstream: "shortener", limit: "api" };
const keyedApi: GatewayRoute = { upstream: "shortener", limit: "api", checksKey: true };
// Creating needs no credential, but a key sent is checked: a key draws on its own budget, anyone else on the address's create one.
const create: GatewayRoute = { upstream: "shortener", limit: "create", checksKey: true };
// A bulk create checks its credential (links:write): a key draws on its own budget, anyone else on the address's bulk one.
const bulk: GatewayRoute = { upstream: "shortener", limit: "bulk", checksKey: true };
const redirect: GatewayRoute = { upstream: "shortener", limit: "redirect" };
const login: GatewayRoute = { upstream: "shortener", limit: "login" };
const geocoderApi: GatewayRoute = { upstream: "geocoder", limit: "api" };
// Anyone may report a link (docs/abuse.md): the scarce budget links are made with, so that reports cannot flood the queue.
const report: GatewayRoute = { upstream: "shortener", limit: "create" };

/**
 * Paths the gateway answers itself (`/docs/*` and the web app's `/app/*` included); never sent upstream.
 * `internal` is the services' own traffic (the redirect batch): from outside it is a 404.
 */
export const ownSegments: ReadonlySet<string> = new Set(["docs", "health", "ready", "app", "internal"]);

/**
 * The gateway's routing rules. Every path works with and without its trailing
 * slash, as on the services. Undefined: the gateway's own path or no route
 * at all; the app tells them apart (its own routes, else 404 not_found).
 */
export function routeFor(method: string, pathname: string): GatewayRoute | undefined {
  const segments = pathname.replace(/^\//, "").replace(/\/$/, "").split("/");
  const [first = "", ...rest] = segments;
  if (first === "" || ownSegments.has(first)) return undefined;

  if (first === "shorten") {
    // Only creating a link spends the scarce "create" budget, and a bulk create (up to 1,000 links) the
    // "bulk" one; reading and managing links is ordinary API traffic.
    const post = method.toUpperCase() === "POST";
    if (post && rest.length === 0) return create;
    if (post && rest.length === 1 && rest[0] === "bulk") return bulk;
    const keyed = checksCredential(method, segments);
    const reads = method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD";
    // `bulk` and `stats` name routes of many links there, never one link's code.
    const oneLink = (rest.length === 1 || (rest.length === 2 && rest[1] === "stats")) && rest[0] !== "bulk" && rest[0] !== "stats";
    const code = reads && oneLink ? shortCodeIn(rest[0]!) : undefined;
    if (code !== undefined) return { upstream: "shortener", limit: "api", ...(keyed ? { checksKey: true } : {}), asksCode: code };
    return keyed ? keyedApi : shortenerApi;
  }
  // The bare `/admin` goes to the shortener too: it is a reserved word, never
  // a short code, so the shortener's 404 is the right answer for it.
  if (first === "admin") {
    // Each try costs the shortener an argon2 verification (~150 ms of CPU): a budget of its own,
    // for a token (`login`) and for a browser's cookie session (`session`) alike.
    const signsIn = rest.length === 1 && (rest[0] === "login" || rest[0] === "session") && method.toUpperCase() === "POST";
    if (signsIn) return login;
    return checksCredential(method, segments) ? keyedApi : shortenerApi;
  }

  // A person's sign-in (docs/people.md): the login budgets, as an admin's; the sign-out reads its token first.
  // GET and HEAD on /login stay a short link's path (a link made before the word was reserved).
  if (first === "login" && rest.length === 0 && method.toUpperCase() === "POST") return login;
  if (first === "login" && rest.length === 0 && method.toUpperCase() === "DELETE") return keyedApi;
  // Who is signed in by the browser's cookie, and its CSRF token.
  if (first === "login" && rest.length === 1 && rest[0] === "session" && method.toUpperCase() === "GET") return shortenerApi;
  // People's workspaces: ordinary API traffic, a reserved word, never a short code.
  if (first === "workspaces") return checksCredential(method, segments) ? keyedApi : shortenerApi;
  // Accepting an invite may make a person (an argon2id hash): the login budgets. Anything else under /invites is no route.
  if (first === "invites") return rest.length === 2 && rest[1] === "accept" && method.toUpperCase() === "POST" ? login : shortenerApi;

  if (first === "report" && rest.length === 0 && method.toUpperCase() === "POST") return report;

  // A geocoding batch (up to 1,000 points): ordinary API traffic, one request of the budget whatever its points (docs/gateway.md).
  if (first === "reverse-geocode" && rest.length === 1 && rest[0] === "batch" && method.toUpperCase() === "POST") return geocoderApi;
  // A forward batch (up to 1,000 queries): the same, its queries counted as points.
  if (first === "geocode" && rest.length === 1 && rest[0] === "batch" && method.toUpperCase() === "POST") return geocoderApi;
  // Geocoding jobs: /jobs, /jobs/<id>, /jobs/<id>/results. One request each: a job's points are paced by the providers' limits.
  if ((first === "reverse-geocode" || first === "geocode") && rest[0] === "jobs" && isJobPath(rest)) return geocoderApi;
  if (rest.length > 0) return undefined;
  if (first === "reverse-geocode" || first === "geocode" || first === "geocoders") return geocoderApi;
  // Only following a link is a redirect; a POST is a password try on a
  // protected link; any other method on `/<code>` is an API call.
  const upper = method.toUpperCase();
  if (upper === "GET" || upper === "HEAD") return redirect;
  const link = upper === "POST" ? shortCodeIn(first) : undefined;
  return link === undefined ? shortenerApi : { upstream: "shortener", limit: "unlock", link };
}

/**
 * The shortener's routes that read the credential first, whatever else the
 * request holds: an unknown, revoked or expired API key is their 401 (`*` is
 * any one segment). Anywhere else the shortener may answer without looking
 * at the key (creating, reading one link, a path it does not have), so a
 * made-up key proves nothing there and spends the address's budget. A route
 * missing here only costs its key users their own budget, never opens one.
 */
const credentialRoutes: readonly string[] = [
  "GET shorten",
  "POST shorten",
  "POST shorten/bulk",
  "PUT shorten/*",
  "DELETE shorten/*",
  "GET shorten/*/visits",
  "GET shorten/*/visits/export",
  "GET admin/api-keys",
  "POST admin/api-keys",
  "DELETE admin/api-keys/*",
  "GET admin/domains",
  "POST admin/domains",
  "PATCH admin/domains/*",
  "DELETE admin/domains/*",
  "GET admin/allow-list",
  "POST admin/allow-list",
  "DELETE admin/allow-list/*",
  "GET admin/ban-list",
  "POST admin/ban-list",
  "DELETE admin/ban-list/*",
  "GET admin/reports",
  "POST admin/reports/*/actions",
  "POST admin/users",
  "DELETE admin/users/*",
  "GET workspaces",
  "POST workspaces",
  "DELETE workspaces/*",
  "GET workspaces/*/members",
  "POST workspaces/*/invites",
  "GET workspaces/*/invites",
  "DELETE workspaces/*/invites/*",
  "PATCH workspaces/*/members/*",
  "DELETE workspaces/*/members/*",
  "POST workspaces/*/api-keys",
  "GET workspaces/*/api-keys",
  "DELETE workspaces/*/api-keys/*",
  "GET workspaces/*/audit",
  "GET admin/audit",
  "GET admin/visits",
  "GET admin/visits/daily",
  "GET admin/visits/orphans",
  "GET admin/export/links",
  "POST admin/import",
];

function checksCredential(method: string, segments: readonly string[]): boolean {
  const upper = method.toUpperCase();
  return credentialRoutes.some((route) => {
    const [routeMethod, path = ""] = route.split(" ");
    const pattern = path.split("/");
    return (
      routeMethod === upper && pattern.length === segments.length && pattern.every((part, i) => (part === "*" ? segments[i] !== "" : part === segments[i]))
    );
  });
}

/** The segments after /reverse-geocode or /geocode of a job route: `jobs`, `jobs/<id>`, `jobs/<id>/results`. */
function isJobPath(rest: readonly string[]): boolean {
  if (rest.length === 1) return true;
  if (rest[1] === "") return false;
  return rest.length === 2 || (rest.length === 3 && rest[2] === "results");
}
