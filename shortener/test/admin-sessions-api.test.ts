import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readJson } from "@linkgeo/testing";
import { openDatabase } from "../src/storage/open-database.ts";
import { startShortener } from "./support/shortener-process.ts";
import { openRawDatabase, type RawDatabase } from "./support/raw-database.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const t0 = new Date("2026-11-22T07:00:00.000Z");
const twelveHours = 12 * 60 * 60 * 1000;
const password = "correct horse battery";

describe.each(["sqlite", "postgres"] as const)("admin sessions by cookie on %s", (engine) => {
  let raw: RawDatabase;
  let api: TestShortener;
  let now = t0;
  let adminSeq = 0;

  beforeAll(async () => {
    raw = await openRawDatabase(engine);
    api = await startTestShortener({ database: raw.db, clock: () => now });
    // bcrypt at its lowest cost: the login checks any Bun.password hash, and argon2id would slow every test.
    await newAdmin("alice");
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
    await raw[Symbol.asyncDispose]();
  });

  async function newAdmin(username = `admin${++adminSeq}`): Promise<string> {
    await raw.db.admins.insert({ username, passwordHash: await Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 }), createdAt: t0 });
    return username;
  }

  /** Signs in through the API; `cookie` is what the browser then sends. */
  async function signIn(username = "alice") {
    const response = await api.request("POST", "/admin/session", { json: { username, password } });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie") ?? "";
    const id = /^linkgeo_admin=([^;]+);/.exec(setCookie)?.[1] ?? "";
    const body = await readJson(response);
    return { id, cookie: `linkgeo_admin=${id}`, csrf: body.csrf_token as string, body, setCookie, response };
  }

  const withCookie = (cookie: string, more: Record<string, string> = {}) => ({ headers: { cookie, ...more } });
  const longUrlOf = async (code: string) => (await readJson(await api.request("GET", `/shorten/${code}/`))).long_url;

  describe("POST /admin/session", () => {
    test("sets an HttpOnly, SameSite=Strict cookie for 12 hours and answers the admin, a CSRF token and the expiry", async () => {
      now = t0;
      const { id, setCookie, body, response } = await signIn();
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(setCookie).toBe(`linkgeo_admin=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`);
      expect(body).toEqual({
        username: "alice",
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: new Date(t0.getTime() + twelveHours).toISOString(),
      });
      expect(body.csrf_token).not.toBe(id);
      expect(response.headers.get("cache-control")).toBe("no-store");
    });

    test("stores the session id's SHA-256, never the id", async () => {
      const { id } = await signIn();
      const hash = new Bun.CryptoHasher("sha256").update(id).digest("hex");
      const rows = await raw.query("SELECT id_hash, username FROM admin_sessions");
      expect(rows).toContainEqual({ id_hash: hash, username: "alice" });
      expect(JSON.stringify(rows)).not.toContain(id);
    });

    test("every sign-in is a new session with its own CSRF token", async () => {
      const [first, second] = [await signIn(), await signIn()];
      expect(second.id).not.toBe(first.id);
      expect(second.csrf).not.toBe(first.csrf);
    });

    test.each([
      ["a wrong password", { username: "alice", password: "wrong" }],
      ["an unknown user", { username: "nobody", password }],
    ])("answers 401 for %s, and sets no cookie", async (_, credentials) => {
      const response = await api.request("POST", "/admin/session", { json: credentials });
      expect(response.status).toBe(401);
      expect(await readJson(response)).toEqual({ error: { code: "unauthorized", message: "invalid username or password" } });
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    test("checks the body like /admin/login: 400 for a missing field or a NUL, 415 for a form", async () => {
      expect((await api.request("POST", "/admin/session", { json: { username: "alice" } })).status).toBe(400);
      expect((await api.request("POST", "/admin/session", { json: { username: "al\u0000ice", password } })).status).toBe(400);
      const form = await api.request("POST", "/admin/session", { body: "username=alice", headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(form.status).toBe(415);
    });

    test("refuses a sign-in posted from another site's page (403), so no one is signed in as someone else", async () => {
      const response = await api.request("POST", "/admin/session", { json: { username: "alice", password }, headers: { origin: "https://evil.example" } });
      expect(response.status).toBe(403);
      expect((await readJson(response)).error.code).toBe("forbidden");
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    test("sweeps expired sessions when a new one starts", async () => {
      now = new Date("2026-11-10T00:00:00.000Z");
      const old = await signIn();
      now = new Date(now.getTime() + twelveHours);
      await signIn();
      now = t0;
      const hash = new Bun.CryptoHasher("sha256").update(old.id).digest("hex");
      expect(await raw.query(`SELECT id_hash FROM admin_sessions WHERE id_hash = '${hash}'`)).toEqual([]);
    });
  });

  describe("GET /admin/session", () => {
    test("answers the signed-in admin and the same CSRF token for the cookie", async () => {
      now = t0;
      const { cookie, body } = await signIn();
      now = new Date(t0.getTime() + 60_000);
      const response = await api.request("GET", "/admin/session", withCookie(cookie));
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual(body);
      expect(response.headers.get("cache-control")).toBe("no-store");
      now = t0;
    });

    test.each([
      ["no cookie", undefined],
      ["another cookie", "theme=dark"],
      ["an id nobody was given", `linkgeo_admin=${"A".repeat(43)}`],
      ["an empty value", "linkgeo_admin="],
    ])("answers 401 unauthorized for %s", async (_, cookie) => {
      const response = await api.request("GET", "/admin/session", cookie === undefined ? {} : withCookie(cookie));
      expect(response.status).toBe(401);
      expect((await readJson(response)).error.code).toBe("unauthorized");
    });

    test("a bearer admin token is not a session (401)", async () => {
      const response = await api.request("GET", "/admin/session", { headers: { authorization: `Bearer ${api.adminToken()}` } });
      expect(response.status).toBe(401);
    });

    test("an expired session is 401, even a millisecond past its 12 hours", async () => {
      now = t0;
      const { cookie } = await signIn();
      now = new Date(t0.getTime() + twelveHours - 1);
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(200);
      now = new Date(t0.getTime() + twelveHours);
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(401);
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(401);
      now = t0;
    });

    test("a session whose admin was removed is 401", async () => {
      const username = await newAdmin();
      const { cookie } = await signIn(username);
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(200);
      await raw.query(`DELETE FROM admins WHERE username = '${username}'`);
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(401);
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(401);
    });
  });

  describe("DELETE /admin/session", () => {
    test("ends the session for good and clears the cookie; the old value is 401 afterwards", async () => {
      const { cookie, csrf } = await signIn();
      const response = await api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": csrf }));
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
      expect(response.headers.getSetCookie()).toEqual(
        ["/", "/admin", "/admin/", "/admin/session"].map((path) => `linkgeo_admin=; Max-Age=0; Path=${path}; HttpOnly; SameSite=Strict`),
      );
      // A copy of the cookie kept anywhere is worth nothing now.
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(401);
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(401);
      expect((await api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": csrf }))).status).toBe(401);
    });

    test.each([
      ["without X-CSRF-Token", {}],
      ["with another session's token", "other"],
      ["with a token one character off", "mangled"],
      ["from another site", "cross-origin"],
    ] as const)("answers 403 %s, and the session lives on", async (_, variant) => {
      const { cookie, csrf } = await signIn();
      const other = await signIn();
      const headers: Record<string, string> =
        variant === "other"
          ? { "x-csrf-token": other.csrf }
          : variant === "mangled"
            ? { "x-csrf-token": csrf.replace(/.$/, (c) => (c === "A" ? "B" : "A")) }
            : variant === "cross-origin"
              ? { "x-csrf-token": csrf, origin: "https://evil.example" }
              : {};
      const response = await api.request("DELETE", "/admin/session", withCookie(cookie, headers));
      expect(response.status).toBe(403);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect((await api.request("GET", "/admin/session", withCookie(cookie))).status).toBe(200);
    });
  });

  describe("cookies tossed by another page of the host (same name, narrower path, sent first)", () => {
    const aliveAs = async (cookie: string) => {
      const response = await api.request("GET", "/admin/session", withCookie(cookie));
      return response.status === 200 ? (await readJson(response)).username : response.status;
    };

    test.each([
      ["junk first", (id: string) => `linkgeo_admin=junk; linkgeo_admin=${id}`],
      ["a well-shaped dead id first", (id: string) => `linkgeo_admin=${"A".repeat(43)}; linkgeo_admin=${id}`],
      ["junk last", (id: string) => `linkgeo_admin=${id}; linkgeo_admin=junk`],
      ["quoted junk and an empty value first", (id: string) => `linkgeo_admin="junk"; linkgeo_admin=; linkgeo_admin=${id}`],
      [
        "200 well-shaped dead ids first",
        (id: string) => [...Array.from({ length: 200 }, (_, i) => `linkgeo_admin=${String(i).padStart(43, "x")}`), `linkgeo_admin=${id}`].join("; "),
      ],
    ])("with %s, the real session still reads, lists and changes", async (_, header) => {
      const { id, csrf, body } = await signIn();
      const cookie = header(id);
      const link = await api.createLink("https://example.com/before-toss");

      const session = await api.request("GET", "/admin/session", withCookie(cookie));
      expect(session.status).toBe(200);
      expect(await readJson(session)).toEqual(body);
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(200);
      const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: "https://example.com/after-toss" },
        ...withCookie(cookie, { "x-csrf-token": csrf }),
      });
      expect(put.status).toBe(200);
    });

    test.each([
      ["before", (own: string, tossed: string) => `linkgeo_admin=${tossed}; linkgeo_admin=${own}`],
      ["after", (own: string, tossed: string) => `linkgeo_admin=${own}; linkgeo_admin=${tossed}`],
    ])("another admin's live session tossed %s the browser's own is not taken for either: 401, reads and changes alike", async (_, header) => {
      const tossed = await signIn(await newAdmin());
      const own = await signIn("alice");
      const cookie = header(own.id, tossed.id);
      expect(await aliveAs(cookie)).toBe(401);
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(401);
      const link = await api.createLink("https://example.com/kept");
      for (const csrf of [own.csrf, tossed.csrf]) {
        const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
          json: { long_url: "https://example.com/x" },
          ...withCookie(cookie, { "x-csrf-token": csrf }),
        });
        expect(put.status).toBe(401);
      }
      expect(await longUrlOf(link.short_url)).toBe("https://example.com/kept");
    });

    test("signing in again ends every session the browser sent, the tossed one too: the new one alone is live", async () => {
      const tossed = await signIn(await newAdmin());
      const own = await signIn("alice");
      const response = await api.request("POST", "/admin/session", {
        json: { username: "alice", password },
        ...withCookie(`linkgeo_admin=${tossed.id}; linkgeo_admin=${own.id}`),
      });
      expect(response.status).toBe(200);
      const fresh = /^linkgeo_admin=([^;]+);/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";
      expect([await aliveAs(`linkgeo_admin=${tossed.id}`), await aliveAs(`linkgeo_admin=${own.id}`)]).toEqual([401, 401]);
      // The browser still sends the tossed value (a cookie the response could not clear): it is dead now.
      expect(await aliveAs(`linkgeo_admin=${tossed.id}; linkgeo_admin=${fresh}`)).toBe("alice");
    });

    test("a wrong password ends nothing", async () => {
      const own = await signIn("alice");
      const response = await api.request("POST", "/admin/session", { json: { username: "alice", password: "wrong password" }, ...withCookie(own.cookie) });
      expect(response.status).toBe(401);
      expect(await aliveAs(own.cookie)).toBe("alice");
    });

    test("sign-out with two live sessions ends both, given the CSRF token of one", async () => {
      const tossed = await signIn(await newAdmin());
      const own = await signIn("alice");
      const cookie = `linkgeo_admin=${tossed.id}; linkgeo_admin=${own.id}`;
      expect((await api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": "A".repeat(43) }))).status).toBe(403);
      expect((await api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": own.csrf }))).status).toBe(204);
      expect([await aliveAs(own.cookie), await aliveAs(tossed.cookie)]).toEqual([401, 401]);
    });

    const deadIds = (count: number) => Array.from({ length: count }, (_, i) => `linkgeo_admin=${String(i).padStart(43, "x")}`).join("; ");
    test.each([
      ["8 well-shaped dead ids last", (id: string) => `linkgeo_admin=${id}; ${deadIds(8)}`],
      ["200 well-shaped dead ids last", (id: string) => `linkgeo_admin=${id}; ${deadIds(200)}`],
      [
        "ours amid dead ids and junk",
        (id: string) => `${deadIds(5)}; linkgeo_admin=junk; linkgeo_admin=${id}; ${deadIds(8).replaceAll("x", "y")}; linkgeo_admin=`,
      ],
    ])("with %s (any order: a client chooses it), who-am-I and a change work, and sign-out ends the real session", async (_, header) => {
      const { id, csrf, body } = await signIn();
      const cookie = header(id);
      const link = await api.createLink("https://example.com/any-order");

      const session = await api.request("GET", "/admin/session", withCookie(cookie));
      expect([session.status, await readJson(session)]).toEqual([200, body]);
      const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: "https://example.com/any-order-changed" },
        ...withCookie(cookie, { "x-csrf-token": csrf }),
      });
      expect(put.status).toBe(200);
      expect((await api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": csrf }))).status).toBe(204);
      expect(await aliveAs(`linkgeo_admin=${id}`)).toBe(401);
    });

    test.each([
      ["first", (id: string) => `linkgeo_admin=junk; linkgeo_admin=${id}`],
      ["last", (id: string) => `linkgeo_admin=${id}; linkgeo_admin=junk`],
    ])("with junk sent %s, the page's token read on one replica signs out on another with its own ELYSIA_SECRET_KEY", async (_, header) => {
      // What the admin page does behind a gateway's round robin: who am I on one replica, sign out on the next,
      // each started with its own key (as every replica is when ELYSIA_SECRET_KEY is unset: a random one).
      await using other = await startTestShortener({ database: raw.db, clock: () => now, secretKey: "another-replica-key-that-is-long-enough-9876543210" });
      const { id } = await signIn();
      const cookie = header(id);
      const shown = await api.request("GET", "/admin/session", withCookie(cookie));
      expect(shown.status).toBe(200);
      const { csrf_token } = await readJson(shown);

      const response = await other.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": csrf_token }));
      expect(response.status).toBe(204);
      expect([await aliveAs(`linkgeo_admin=${id}`), (await other.request("GET", "/admin/session", withCookie(`linkgeo_admin=${id}`))).status]).toEqual([
        401, 401,
      ]);
    });

    test("sign-out with junk sent first ends the real session and clears the cookie on every path the request came with", async () => {
      const { id, csrf } = await signIn();
      const response = await api.request("DELETE", "/admin/session", withCookie(`linkgeo_admin=junk; linkgeo_admin=${id}`, { "x-csrf-token": csrf }));
      expect(response.status).toBe(204);
      expect(response.headers.getSetCookie().map((cookie) => /Path=([^;]+)/.exec(cookie)?.[1])).toEqual(["/", "/admin", "/admin/", "/admin/session"]);
      expect(await aliveAs(`linkgeo_admin=${id}`)).toBe(401);
    });
  });

  describe("the cookie on the links and visits API", () => {
    test("reads need no CSRF token: the admin listing and the visits reports", async () => {
      const { cookie } = await signIn();
      const link = await api.createLink();
      expect((await api.request("GET", "/shorten/", withCookie(cookie))).status).toBe(200);
      expect((await api.request("GET", "/admin/visits/", withCookie(cookie))).status).toBe(200);
      expect((await api.request("GET", `/shorten/${link.short_url}/visits/`, withCookie(cookie))).status).toBe(200);
    });

    test("a change without X-CSRF-Token, or with a wrong one, is 403 and changes nothing", async () => {
      const { cookie } = await signIn();
      const other = await signIn();
      const link = await api.createLink("https://example.com/kept");
      for (const headers of [{}, { "x-csrf-token": other.csrf }, { "x-csrf-token": "" }, { "x-csrf-token": "x".repeat(5000) }] as Array<
        Record<string, string>
      >) {
        const put = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { long_url: "https://evil.example/" }, ...withCookie(cookie, headers) });
        expect(put.status).toBe(403);
        expect(await readJson(put)).toEqual({
          error: { code: "forbidden", message: "the X-CSRF-Token header is missing or wrong: send the csrf_token of the admin session" },
        });
        expect((await api.request("DELETE", `/shorten/${link.short_url}/`, withCookie(cookie, headers))).status).toBe(403);
      }
      expect(await longUrlOf(link.short_url)).toBe("https://example.com/kept");
    });

    test("with the right X-CSRF-Token the admin may change and delete any link", async () => {
      const { cookie, csrf } = await signIn();
      const link = await api.createLink("https://example.com/before");
      const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: "https://example.com/after" },
        ...withCookie(cookie, { "x-csrf-token": csrf }),
      });
      expect(put.status).toBe(200);
      expect(await longUrlOf(link.short_url)).toBe("https://example.com/after");
      const del = await api.request("DELETE", `/shorten/${link.short_url}/`, withCookie(cookie, { "x-csrf-token": csrf }));
      expect(del.status).toBe(204);
      expect((await api.request("GET", `/shorten/${link.short_url}/`)).status).toBe(404);
    });

    test.each(["https://evil.example", "http://localhost.evil.example", "http://localhost:8081", "null", "not a url", "file:///etc/passwd"])(
      "a change from Origin %p is 403 even with the right token, and changes nothing",
      async (origin) => {
        const { cookie, csrf } = await signIn();
        const link = await api.createLink("https://example.com/kept");
        const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
          json: { long_url: "https://example.com/x" },
          ...withCookie(cookie, { "x-csrf-token": csrf, origin }),
        });
        expect(put.status).toBe(403);
        expect((await readJson(put)).error.code).toBe("forbidden");
        expect(await longUrlOf(link.short_url)).toBe("https://example.com/kept");
      },
    );

    test.each([
      ["the request's own host", "http://localhost", {}],
      ["the host the gateway forwarded", "https://sho.rt", { "x-forwarded-host": "sho.rt", "x-forwarded-proto": "https" }],
      ["the forwarded host with its default port spelled out", "https://sho.rt", { "x-forwarded-host": "sho.rt:443", "x-forwarded-proto": "https" }],
    ])("a change from %s (Origin %p) is allowed", async (_, origin, forwarded) => {
      const { cookie, csrf } = await signIn();
      const link = await api.createLink();
      const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: "https://example.com/same-site" },
        ...withCookie(cookie, { "x-csrf-token": csrf, origin, ...forwarded }),
      });
      expect(put.status).toBe(200);
    });

    test.each([
      ["https for a request made over http", "https://localhost", {}],
      ["http for a deployment the gateway says is https", "http://sho.rt", { "x-forwarded-host": "sho.rt", "x-forwarded-proto": "https" }],
      ["https for a deployment the gateway says is http", "https://sho.rt", { "x-forwarded-host": "sho.rt", "x-forwarded-proto": "http" }],
      ["another port of the forwarded host", "https://sho.rt:8443", { "x-forwarded-host": "sho.rt", "x-forwarded-proto": "https" }],
    ])("a change from the right host with the wrong scheme or port, %s (Origin %p), is 403", async (_, origin, forwarded) => {
      const { cookie, csrf } = await signIn();
      const link = await api.createLink("https://example.com/kept");
      const put = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: "https://example.com/x" },
        ...withCookie(cookie, { "x-csrf-token": csrf, origin, ...forwarded }),
      });
      expect(put.status).toBe(403);
      expect(await longUrlOf(link.short_url)).toBe("https://example.com/kept");
    });

    test("signing in from the right host with the wrong scheme is 403, and sets no cookie", async () => {
      const response = await api.request("POST", "/admin/session", {
        json: { username: "alice", password },
        headers: { origin: "https://sho.rt", "x-forwarded-host": "sho.rt", "x-forwarded-proto": "http" },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    test("a forwarded host is ours only through a trusted proxy", async () => {
      const { cookie, csrf } = await signIn();
      const link = await api.createLink();
      const headers = { "x-csrf-token": csrf, origin: "https://sho.rt", "x-forwarded-host": "sho.rt", "x-test-peer": "203.0.113.9" };
      expect(
        (await api.request("PUT", `/shorten/${link.short_url}/`, { json: { long_url: "https://example.com/x" }, ...withCookie(cookie, headers) })).status,
      ).toBe(403);
    });

    test("Authorization takes precedence: a manage token with an admin's cookie is still only that token", async () => {
      const { cookie, csrf } = await signIn();
      const [mine, theirs] = [await api.createLink(), await api.createLink("https://example.com/theirs")];
      const response = await api.request(
        "DELETE",
        `/shorten/${theirs.short_url}/`,
        withCookie(cookie, { "x-csrf-token": csrf, authorization: `Bearer ${mine.manage_token}` }),
      );
      expect(response.status).toBe(403);
      const garbage = await api.request("GET", "/shorten/", withCookie(cookie, { authorization: "Basic YWxpY2U6cHc=" }));
      expect(garbage.status).toBe(401);
      expect(await longUrlOf(theirs.short_url)).toBe("https://example.com/theirs");
    });
  });

  describe("hostile cookies never make a 500", () => {
    const valueOf10Kb = "A".repeat(10 * 1024);
    const hostile: Array<[string, string]> = [
      ["garbage", "\u00ff\u00fe;;;===;linkgeo_admin"],
      ["only separators", "=;=;;=="],
      ["a name without a value", "linkgeo_admin"],
      ["percent signs", "linkgeo_admin=%%%E0%A4%A"],
      ["a quoted value", 'linkgeo_admin="AAAA"'],
      ["a 10 KB value", `linkgeo_admin=${valueOf10Kb}`],
      ["a 10 KB name", `${valueOf10Kb}=1`],
      ["200 cookies", Array.from({ length: 200 }, (_, i) => `c${i}=${"v".repeat(20)}`).join("; ")],
      ["200 session cookies", Array.from({ length: 200 }, (_, i) => `linkgeo_admin=${String(i).padStart(43, "x")}`).join("; ")],
    ];

    test.each(hostile)("%s: 401 on the session and the admin listing, 403 or 401 on a change, 200 where no one needs to sign in", async (_, cookie) => {
      const link = await api.createLink();
      const answers = await Promise.all([
        api.request("GET", "/admin/session", withCookie(cookie)),
        api.request("GET", "/shorten/", withCookie(cookie)),
        api.request("DELETE", "/admin/session", withCookie(cookie, { "x-csrf-token": "x" })),
        api.request("PUT", `/shorten/${link.short_url}/`, { json: { long_url: "https://example.com/x" }, ...withCookie(cookie) }),
        api.request("GET", `/shorten/${link.short_url}/`, withCookie(cookie)),
        api.request("POST", "/admin/session", { json: { username: "alice", password }, ...withCookie(cookie) }),
      ]);
      expect(answers.map((response) => response.status)).toEqual([401, 401, 401, 401, 200, 200]);
    });

    test("the real session cookie among 200 others, after a malformed one, still signs in", async () => {
      const { id } = await signIn();
      const crowd = Array.from({ length: 200 }, (_, i) => `c${i}=v`);
      const response = await api.request("GET", "/admin/session", withCookie(["garbage;;=", ...crowd, `linkgeo_admin=${id}`].join("; ")));
      expect(response.status).toBe(200);
    });
  });
});

describe("the session cookie of a shortener started with NODE_ENV=production (HTTPS)", () => {
  let folder: string;
  let shortener: AsyncDisposable & { url: string };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "shortener-production-"));
    const path = join(folder, "shortener.db");
    shortener = await startShortener({ NODE_ENV: "production", DATABASE_URL: `sqlite:///${path}`, ANALYTICS: "off" });
    // The same SQLite file, beside the process (WAL): what `bun run createsuperuser` would do.
    const database = await openDatabase({ engine: "sqlite", path });
    for (const username of ["alice", "bob"]) {
      await database.admins.insert({ username, passwordHash: await Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 }), createdAt: t0 });
    }
    await database.close();
  }, 20_000);
  afterAll(async () => {
    await shortener?.[Symbol.asyncDispose]();
    rmSync(folder, { recursive: true, force: true });
  });

  const signIn = async (username: string) => {
    const response = await fetch(`${shortener.url}/admin/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie") ?? "";
    return { setCookie, id: /^[^=]+=([^;]+);/.exec(setCookie)?.[1] ?? "", csrf: (await readJson(response)).csrf_token as string };
  };
  const whoIs = async (cookie: string) => {
    const response = await fetch(`${shortener.url}/admin/session`, { headers: { cookie } });
    return response.status === 200 ? (await readJson(response)).username : response.status;
  };

  test("is __Host-linkgeo_admin, Secure with Path=/ and no Domain, and sign-out clears it where alone it can be", async () => {
    const { setCookie, id, csrf } = await signIn("alice");
    expect(setCookie).toMatch(/^__Host-linkgeo_admin=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200; Secure$/);
    const signOut = await fetch(`${shortener.url}/admin/session`, {
      method: "DELETE",
      headers: { cookie: `__Host-linkgeo_admin=${id}`, "x-csrf-token": csrf },
    });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.getSetCookie()).toEqual(["__Host-linkgeo_admin=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure"]);
    expect(await whoIs(`__Host-linkgeo_admin=${id}`)).toBe(401);
  });

  test("a plain linkgeo_admin, which any page of the host may toss onto any path, is never read: not alone, not beside ours", async () => {
    const own = await signIn("alice");
    const tossed = await signIn("bob");
    // Another admin's live session, tossed: it makes this browser no one, and locks no one out.
    expect(await whoIs(`linkgeo_admin=${tossed.id}`)).toBe(401);
    expect(await whoIs(`linkgeo_admin=${tossed.id}; __Host-linkgeo_admin=${own.id}`)).toBe("alice");
    expect(await whoIs(`__Host-linkgeo_admin=${own.id}; linkgeo_admin=${tossed.id}`)).toBe("alice");
    const signOut = await fetch(`${shortener.url}/admin/session`, {
      method: "DELETE",
      headers: { cookie: `linkgeo_admin=junk; linkgeo_admin=${tossed.id}; __Host-linkgeo_admin=${own.id}`, "x-csrf-token": own.csrf },
    });
    expect(signOut.status).toBe(204);
    expect([await whoIs(`__Host-linkgeo_admin=${own.id}`), await whoIs(`__Host-linkgeo_admin=${tossed.id}`)]).toEqual([401, "bob"]);
  });
});
