import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack, useWebStack } from "./support/fixtures.ts";
import { stackAdmin, withoutLocalGeocoder } from "../support/web-stack.ts";

/**
 * The admin's session cookie is SameSite=Strict, but a page on another port
 * of the same host is the same site: the browser sends the cookie with its
 * requests. What stops such a page changing links is the CSRF token, which
 * only a page that could read the session endpoints has. Cookies ignore
 * ports, too: such a page can set a `linkgeo_admin` of its own on a narrower
 * path, which the browser then sends before the real one.
 */
describe("cross-site request forgery against an admin's session", () => {
  const web = useSharedWebStack();

  const createLink = async (code: string) => {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: `https://example.com/${code}`, short_url: code }),
    });
    expect(response.status).toBe(201);
  };
  const linkStatus = async (code: string) => (await fetch(`${web.stack.url}/shorten/${code}/`)).status;

  /** Signs in through the API as the web app does; the cookie header to send back, and the session's CSRF token. */
  const signInByApi = async () => {
    const response = await fetch(`${web.stack.url}/admin/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(stackAdmin),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toStartWith("linkgeo_admin=");
    return { cookie, csrfToken: ((await response.json()) as { csrf_token: string }).csrf_token };
  };

  test("with a valid session cookie, changes without the session's own X-CSRF-Token are refused 403", async () => {
    await createLink("csrf-victim");
    await createLink("csrf-control");
    const session = await signInByApi();
    const other = await signInByApi();
    const change = (method: string, path: string, token?: string) =>
      fetch(web.stack.url + path, {
        method,
        headers: {
          cookie: session.cookie,
          ...(method === "PUT" ? { "content-type": "application/json" } : {}),
          ...(token === undefined ? {} : { "x-csrf-token": token }),
        },
        body: method === "PUT" ? JSON.stringify({ long_url: "https://attacker.example/" }) : undefined,
      });

    expect((await change("DELETE", "/shorten/csrf-victim/")).status).toBe(403);
    expect((await change("DELETE", "/shorten/csrf-victim/", "not-the-token")).status).toBe(403);
    expect((await change("DELETE", "/shorten/csrf-victim/", "")).status).toBe(403);
    // Another session's token is not this one's.
    expect((await change("DELETE", "/shorten/csrf-victim/", other.csrfToken)).status).toBe(403);
    expect((await change("PUT", "/shorten/csrf-victim/")).status).toBe(403);
    expect((await change("DELETE", "/admin/session")).status).toBe(403);

    expect(await linkStatus("csrf-victim")).toBe(200);
    expect(((await (await fetch(`${web.stack.url}/shorten/csrf-victim/`)).json()) as { long_url: string }).long_url).toBe("https://example.com/csrf-victim");
    expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: session.cookie } })).status).toBe(200);

    // The same request with the right token goes through: it was the token that was missing.
    expect((await change("DELETE", "/shorten/csrf-control/", session.csrfToken)).status).toBe(204);
    expect(await linkStatus("csrf-control")).toBe(404);
  });

  test(
    "a page on another port of the same host cannot delete, change, read the token of, sign out or sign in the admin's browser",
    async () => {
      await createLink("cross-site");
      // A real admin, signed in through the page, in this browser profile.
      const { page, context } = await web.browser.open(`${web.stack.url}/app/admin`, "desktop");
      await using attacker = serveAttacker(web.stack.url, "cross-site");
      try {
        await page.getByLabel("Username").fill(stackAdmin.username);
        await page.getByLabel("Password").fill(stackAdmin.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        const cookieBefore = (await context.cookies(web.stack.url)).find((c) => c.name === "linkgeo_admin")?.value;
        expect(cookieBefore).toBeDefined();

        // Same site (127.0.0.1), another origin (port): the browser sends the SameSite=Strict cookie.
        const attackerPage = await context.newPage();
        await attackerPage.goto(attacker.url);
        await attackerPage.locator("#results[data-done]").waitFor();
        const results = JSON.parse(await attackerPage.locator("#results").innerText()) as Record<string, string>;
        // CORS lets no request with a method other than GET/HEAD/POST or a JSON body leave without the
        // gateway's consent, and no answer be read; the one request that can leave (no-cors) is opaque.
        expect(results).toEqual({ delete: "blocked", put: "blocked", readSession: "blocked", signOut: "blocked", simplePost: "opaque" });

        // A form the page submits by itself: a sign-in posted from another origin, refused for
        // its origin (403) or, before that, for a body a form can send but the API never takes (415).
        const answer = attackerPage.waitForResponse((response) => response.url() === `${web.stack.url}/admin/session`);
        await attackerPage.goto(`${attacker.url}form`);
        expect([403, 415]).toContain((await answer).status());
        await attackerPage.close();

        expect(await linkStatus("cross-site")).toBe(200);
        expect(((await (await fetch(`${web.stack.url}/shorten/cross-site/`)).json()) as { long_url: string }).long_url).toBe("https://example.com/cross-site");
        // The admin is still signed in with the same session, and it still works.
        expect((await context.cookies(web.stack.url)).find((c) => c.name === "linkgeo_admin")?.value).toBe(cookieBefore);
        await page.reload();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        await page.locator('#links-body tr[data-code="cross-site"]').waitFor();
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "cookies tossed onto /admin and /shorten from another port lock no one out; sign-out ends the real session and clears what it can",
    async () => {
      await createLink("tossed");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/admin`, "desktop");
      await using attacker = serveAttacker(web.stack.url, "tossed");
      // Every path's, not only those a request to `/` would carry.
      const sessionCookies = async () =>
        (await context.cookies())
          .filter((cookie) => cookie.name === "linkgeo_admin")
          .map(({ path, value }) => ({ path, value }))
          .sort((a, b) => a.path.localeCompare(b.path));
      try {
        await page.getByLabel("Username").fill(stackAdmin.username);
        await page.getByLabel("Password").fill(stackAdmin.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        const [real] = await sessionCookies();

        const attackerPage = await context.newPage();
        await attackerPage.goto(`${attacker.url}toss`);
        await attackerPage.close();
        // The browser now sends the tossed values first to /admin/session and /shorten/.
        expect(await sessionCookies()).toEqual([real!, ...tossedCookies]);

        await page.reload();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        await page.locator('#links-body tr[data-code="tossed"]').waitFor();

        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
        // The real session is over, wherever its value is sent from.
        expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: `linkgeo_admin=${real!.value}` } })).status).toBe(401);
        // The browser forgot it and the one on the sign-out's path; the one on /shorten never came with the sign-out.
        expect(await sessionCookies()).toEqual(tossedCookies.filter((cookie) => cookie.path === "/shorten"));
        await page.reload();
        await page.getByRole("heading", { name: "Sign in" }).waitFor();

        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});

describe("signing out of a page whose session is no longer the browser's", () => {
  const web = useSharedWebStack();

  test(
    "after another tab signed in again, Sign out on the first tab ends the session the browser now holds",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/admin`, "desktop");
      const signIn = async (tab: typeof page) => {
        await tab.getByLabel("Username").fill(stackAdmin.username);
        await tab.getByLabel("Password").fill(stackAdmin.password);
        await tab.getByRole("button", { name: "Sign in" }).click();
        await tab.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        return (await context.cookies()).find((cookie) => cookie.name === "linkgeo_admin" && cookie.path === "/")!.value;
      };
      try {
        const first = await signIn(page);
        // A second tab signs in again (from its sign-in form): that ends the first session and starts another.
        const other = await context.newPage();
        await other.goto(`${web.stack.url}/app/admin`);
        await other.getByRole("button", { name: "Sign out" }).click();
        await other.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
        expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: `linkgeo_admin=${first}` } })).status).toBe(401);
        const second = await signIn(other);
        await other.close();

        // The first tab still shows the admin, with the token of a session that has ended.
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
        expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: `linkgeo_admin=${second}` } })).status).toBe(401);
        expect(unexpectedProblems(problems, [401, 403])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});

describe("an admin's session behind two shortener replicas, each with its own ELYSIA_SECRET_KEY", () => {
  // As `bun run start`-style replicas are when the variable is unset: each makes a random key.
  const web = useWebStack({
    ...withoutLocalGeocoder,
    shortenerReplicaKeys: ["replica-one-key-that-is-long-enough-0123456789", "replica-two-key-that-is-long-enough-9876543210"],
  });

  test(
    "with junk tossed onto /admin from another port, Sign out ends the real session whichever replica answers it",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/admin`, "desktop");
      await using attacker = serveAttacker(web.stack.url, "tossed");
      const realCookie = async () => (await context.cookies()).find((cookie) => cookie.name === "linkgeo_admin" && cookie.path === "/")?.value;
      try {
        // The gateway takes turns: with one request more in between, the second round's sign-out reaches
        // the other replica than the first round's, so one of them is not the replica that gave the page its token.
        for (const oneMoreRequest of [false, true]) {
          await page.getByLabel("Username").fill(stackAdmin.username);
          await page.getByLabel("Password").fill(stackAdmin.password);
          await page.getByRole("button", { name: "Sign in" }).click();
          await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
          const real = await realCookie();
          expect(real).toBeDefined();

          const attackerPage = await context.newPage();
          await attackerPage.goto(`${attacker.url}toss`);
          await attackerPage.close();

          // Who is signed in, then everything the page loads with it, before the sign-out.
          const loaded = ["/shorten/?", "/admin/visits?", "/admin/api-keys"].map((path) => page.waitForResponse((response) => response.url().includes(path)));
          await page.reload();
          await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
          await Promise.all(loaded);
          if (oneMoreRequest) expect((await fetch(`${web.stack.url}/admin/session`)).status).toBe(401);

          await page.getByRole("button", { name: "Sign out" }).click();
          await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
          // Dead on both replicas (two requests: one each).
          for (let i = 0; i < 2; i++) {
            expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: `linkgeo_admin=${real}` } })).status).toBe(401);
          }
        }
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});

describe("an admin's session over HTTPS (the shortener in production: __Host-linkgeo_admin)", () => {
  // 127.0.0.1 is a secure context for Chromium, as localhost is: it keeps Secure and __Host- cookies over plain HTTP.
  const web = useWebStack({ ...withoutLocalGeocoder, shortenerEnv: { NODE_ENV: "production" } });

  test(
    "a page on another port can toss no second session cookie: the browser refuses a __Host- one off Path=/, the shortener never reads a plain one",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/admin`, "desktop");
      try {
        await page.getByLabel("Username").fill(stackAdmin.username);
        await page.getByLabel("Password").fill(stackAdmin.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        const sessionCookies = async () =>
          (await context.cookies())
            .filter((cookie) => cookie.name.endsWith("linkgeo_admin"))
            .map(({ name, path, value, secure }) => ({ name, path, value, secure }))
            .sort((a, b) => `${a.name}${a.path}`.localeCompare(`${b.name}${b.path}`));
        const [real] = await sessionCookies();
        expect(real).toEqual({ name: "__Host-linkgeo_admin", path: "/", value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), secure: true });

        // What the tossing page holds: a live session of its own (another admin's, in life), signed in by API.
        const signIn = await fetch(`${web.stack.url}/admin/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(stackAdmin),
        });
        const live = /^__Host-linkgeo_admin=([^;]+);/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
        expect(live).toBeDefined();
        await using attacker = serveAttacker(web.stack.url, "tossed-https", [
          "__Host-linkgeo_admin=junk; Path=/admin; Secure",
          "__Host-linkgeo_admin=junk; Path=/",
          `linkgeo_admin=${live}; Path=/admin`,
          `linkgeo_admin=${live}; Path=/`,
        ]);
        const attackerPage = await context.newPage();
        await attackerPage.goto(`${attacker.url}toss`);
        await attackerPage.close();
        // The two __Host- ones were refused; the plain ones were kept, beside ours.
        expect(await sessionCookies()).toEqual([
          real!,
          { name: "linkgeo_admin", path: "/", value: live!, secure: false },
          { name: "linkgeo_admin", path: "/admin", value: live!, secure: false },
        ]);

        await page.reload();
        await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
        expect((await fetch(`${web.stack.url}/admin/session`, { headers: { cookie: `__Host-linkgeo_admin=${real!.value}` } })).status).toBe(401);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});

/** What the attacker's `/toss` page leaves in the browser: its own `linkgeo_admin` on narrower paths. */
const tossedCookies = [
  { path: "/admin", value: "junk" },
  { path: "/shorten", value: "A".repeat(43) },
];

/**
 * The attacker: a page on its own port of 127.0.0.1 that tries, from its
 * script, every change an admin could make, a second page whose form posts
 * a sign-in to the gateway by itself, and a third (`/toss`) that sets
 * `tossed` (Set-Cookie values; by default `tossedCookies`) for 127.0.0.1,
 * the gateway's host too. Inline script is
 * fine here: this is not one of our pages.
 */
function serveAttacker(gateway: string, code: string, tossed = tossedCookies.map(({ path, value }) => `linkgeo_admin=${value}; Path=${path}`)) {
  const page = (body: string) =>
    new Response(`<!doctype html><html lang="en"><head><title>Win a prize</title></head><body>${body}</body></html>`, {
      headers: { "content-type": "text/html" },
    });
  const target = `${gateway}/shorten/${code}/`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      if (new URL(request.url).pathname === "/toss") {
        const headers = new Headers({ "content-type": "text/html" });
        for (const cookie of tossed) headers.append("set-cookie", cookie);
        return new Response(page("<h1>Win a prize</h1>").body, { headers });
      }
      if (new URL(request.url).pathname === "/form") {
        return page(`<form method="post" action="${gateway}/admin/session" enctype="text/plain">
<input type="hidden" name='{"username":"${stackAdmin.username}","password":"${stackAdmin.password}","x":"' value='"}'>
</form>
<script>document.forms[0].submit();</script>`);
      }
      return page(`<h1>Win a prize</h1><pre id="results"></pre>
<script>
const attempt = async (init, url = ${JSON.stringify(target)}) => {
  try {
    const response = await fetch(url, { credentials: "include", ...init });
    return response.type === "opaque" ? "opaque" : "status " + response.status + ": " + (await response.text());
  } catch {
    return "blocked";
  }
};
(async () => {
  const results = {
    delete: await attempt({ method: "DELETE" }),
    put: await attempt({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ long_url: "https://attacker.example/" }) }),
    readSession: await attempt({}, ${JSON.stringify(`${gateway}/admin/session`)}),
    signOut: await attempt({ method: "DELETE" }, ${JSON.stringify(`${gateway}/admin/session`)}),
    simplePost: await attempt({ method: "POST", mode: "no-cors", body: "long_url=https://attacker.example/" }),
  };
  const out = document.getElementById("results");
  out.textContent = JSON.stringify(results);
  out.dataset.done = "";
})();
</script>`);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, [Symbol.asyncDispose]: () => server.stop(true) };
}
