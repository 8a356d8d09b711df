import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/**
 * A person signed in by the browser's cookie (POST /login sets
 * `linkgeo_person`): the admin session's rules (docs/people.md: "Signing
 * in"), a CSRF token for every change, no sign-in from another site, the
 * browser's earlier sign-ins ended (fixation), sign-out clearing it.
 */
describe("a person's sign-in cookie", () => {
  let api: TestShortener;
  const person = { username: "nora", password: "a long passphrase" };
  beforeAll(async () => {
    api = await startTestShortener({ hashPassword: cheapPasswordHash });
    await api.request("POST", "/admin/users", { json: person, headers: { authorization: `Bearer ${api.adminToken()}` } });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  /** Signs in, sending `cookie` if given: the answer, its token and CSRF token, and the cookie it sets. */
  async function signIn(headers: Record<string, string> = {}) {
    const response = await api.request("POST", "/login", { json: person, headers });
    const body = await readJson(response);
    return { status: response.status, body, setCookie: response.headers.get("set-cookie") ?? "" };
  }
  const cookieOf = (token: string) => ({ cookie: `linkgeo_person=${token}` });

  test("sets an HttpOnly, SameSite=Strict cookie holding the sign-in, and answers its CSRF token", async () => {
    const { status, body, setCookie } = await signIn();
    expect(status).toBe(200);
    expect(setCookie).toBe(`linkgeo_person=${body.token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`);
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await readJson(await api.request("GET", "/login/session", { headers: cookieOf(body.token) }));
    expect(session).toEqual({ username: "nora", expires_at: body.expires_at, csrf_token: body.csrf_token });
  });

  test("reads as the person; a change needs the CSRF token and no Origin of another site", async () => {
    const { body } = await signIn();
    const listed = await api.request("GET", "/workspaces", { headers: cookieOf(body.token) });
    expect([listed.status, (await readJson(listed)).results]).toEqual([200, []]);
    const make = (headers: Record<string, string>) =>
      api.request("POST", "/workspaces", { json: { name: "By cookie" }, headers: { ...cookieOf(body.token), ...headers } });
    expect((await make({})).status).toBe(403);
    expect((await make({ "x-csrf-token": "nope" })).status).toBe(403);
    expect((await make({ "x-csrf-token": body.csrf_token, origin: "https://evil.example" })).status).toBe(403);
    const made = await make({ "x-csrf-token": body.csrf_token, origin: "http://localhost" });
    expect([made.status, (await readJson(made)).role]).toEqual([201, "owner"]);
  });

  test("a sign-in posted from another site is refused; signing in ends the sign-ins the browser carried", async () => {
    expect((await signIn({ origin: "https://evil.example" })).status).toBe(403);
    const first = await signIn();
    const second = await signIn(cookieOf(first.body.token));
    expect(second.status).toBe(200);
    expect((await api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${first.body.token}` } })).status).toBe(401);
    expect((await api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${second.body.token}` } })).status).toBe(200);
  });

  test("two live sessions together, an admin's and a person's, are refused rather than chosen between", async () => {
    const { body } = await signIn();
    await api.db.admins.insert({
      username: "ada",
      passwordHash: await Bun.password.hash("an admin password", { algorithm: "bcrypt", cost: 4 }),
      createdAt: new Date(),
    });
    const admin = await api.request("POST", "/admin/session", { json: { username: "ada", password: "an admin password" } });
    expect(admin.status).toBe(200);
    const adminCookie = admin.headers.get("set-cookie")!.split(";")[0]!;
    expect((await api.request("GET", "/workspaces", { headers: { cookie: adminCookie } })).status).toBe(200);
    const both = await api.request("GET", "/workspaces", { headers: { cookie: `${adminCookie}; linkgeo_person=${body.token}` } });
    expect(both.status).toBe(401);
    const two = await signIn();
    const another = await api.request("POST", "/login", { json: person });
    const third = (await readJson(another)).token;
    const twice = await api.request("GET", "/workspaces", { headers: { cookie: `linkgeo_person=${two.body.token}; linkgeo_person=${third}` } });
    expect(twice.status).toBe(401);
  });

  test("the same sign-in sent twice is one; more values than a browser sends are refused, not some of them read", async () => {
    const { body } = await signIn();
    const twice = await api.request("GET", "/login/session", { headers: { cookie: `linkgeo_person=${body.token}; linkgeo_person=${body.token}` } });
    expect(twice.status).toBe(200);
    const dead = Array.from({ length: 8 }, (_, i) => `linkgeo_person=lgs_${String(i).repeat(43).slice(0, 43)}`);
    const many = await api.request("GET", "/login/session", { headers: { cookie: [...dead, `linkgeo_person=${body.token}`].join("; ") } });
    expect(many.status).toBe(401);
  });

  test("the cookie makes a link in the person's workspace (with its CSRF token) and accepts an invite as them", async () => {
    const { body } = await signIn();
    const headers = { ...cookieOf(body.token), "x-csrf-token": body.csrf_token };
    const workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Cookie's" }, headers }))).id;
    const made = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/by-cookie", workspace }, headers });
    expect([made.status, (await readJson(made)).workspace]).toEqual([201, workspace]);
    expect(
      (await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/by-cookie", workspace }, headers: cookieOf(body.token) })).status,
    ).toBe(403);
    // A page that sends the cookie and names no workspace makes an anonymous link, as ever.
    const anonymous = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/anonymous" }, headers: cookieOf(body.token) }),
    );
    expect([anonymous.workspace, typeof anonymous.manage_token]).toEqual([null, "string"]);

    const host = { username: "hana", password: "a long passphrase" };
    await api.request("POST", "/admin/users", { json: host, headers: { authorization: `Bearer ${api.adminToken()}` } });
    const hosts = (await readJson(await api.request("POST", "/login", { json: host }))).token;
    const theirs = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Hana's" }, headers: { authorization: `Bearer ${hosts}` } }))).id;
    const invite = await readJson(
      await api.request("POST", `/workspaces/${theirs}/invites`, { json: { role: "viewer" }, headers: { authorization: `Bearer ${hosts}` } }),
    );
    const accepted = await api.request("POST", `/invites/${invite.token}/accept`, { headers });
    expect([accepted.status, await readJson(accepted)]).toEqual([200, { workspace: theirs, role: "viewer" }]);
  });

  test("signing out with the cookie needs its CSRF token, ends the sign-in for good and clears the cookie", async () => {
    const { body } = await signIn();
    expect((await api.request("DELETE", "/login", { headers: cookieOf(body.token) })).status).toBe(403);
    const out = await api.request("DELETE", "/login", { headers: { ...cookieOf(body.token), "x-csrf-token": body.csrf_token } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("linkgeo_person=; Max-Age=0; Path=/");
    expect((await api.request("GET", "/login/session", { headers: cookieOf(body.token) })).status).toBe(401);
    expect((await api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${body.token}` } })).status).toBe(401);
  });
});
