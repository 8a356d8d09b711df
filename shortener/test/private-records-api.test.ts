import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";

/** The options of a record, which only those who may read its link see (docs/people.md: "Private by default"). */
const optionFields = ["expires_at", "max_visits", "expired_url", "redirect_status", "password_protected", "tags", "title", "forward_query", "rules", "state"];

/** Every option set, so that a field shown where it should not be is seen. */
const everyOption = {
  expires_at: "2099-01-01T00:00:00Z",
  max_visits: 50,
  expired_url: "https://example.com/over",
  redirect_status: 307,
  tags: ["launch"],
  title: "Secret launch",
  forward_query: true,
  rules: [{ when: { country: "DE" }, url: "https://example.com/de" }],
};

/** Records, stats and visits reports as each caller reads them, on both engines. */
describe.each(["sqlite", "postgres"] as const)("private by default on %s", (engine) => {
  let api: TestShortener;
  const tokens: Record<string, string> = {};
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const admin = () => bearer(api.adminToken());
  let workspace: number;

  beforeAll(async () => {
    api = await startTestShortener({
      engine,
      hashPassword: cheapPasswordHash,
      visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }),
    });
    for (const username of ["olga", "vera", "omar"]) {
      const person = { username, password: "a long passphrase" };
      await api.request("POST", "/admin/users", { json: person, headers: admin() });
      tokens[username] = (await readJson(await api.request("POST", "/login", { json: person }))).token;
    }
    // olga owns a workspace with vera as its viewer; omar owns one of his own.
    workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Launches" }, headers: bearer(tokens.olga!) }))).id;
    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "viewer" }, headers: bearer(tokens.olga!) }));
    await api.request("POST", `/invites/${invite.token}/accept`, { headers: bearer(tokens.vera!) });
    await api.request("POST", "/workspaces", { json: { name: "Elsewhere" }, headers: bearer(tokens.omar!) });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  async function key(scopes: string[]): Promise<string> {
    return (await readJson(await api.request("POST", "/admin/api-keys", { json: { name: scopes.join(" "), scopes }, headers: admin() }))).key;
  }

  /** What `headers` reads of a link: its record and stats, each with the options it shows. */
  async function readAs(code: string, headers: Record<string, string>) {
    const record = await readJson(await api.request("GET", `/shorten/${code}/`, { headers }));
    const stats = await readJson(await api.request("GET", `/shorten/${code}/stats/`, { headers }));
    return {
      record: optionFields.filter((field) => field in record),
      stats: Object.keys(stats).sort(),
      long_url: record.long_url,
      seedFields: [record.short_url, record.access_count, typeof record.link, typeof record.created_at],
    };
  }

  test("an anonymous link's options and a protected one's URL are its manage token's, an admin's and a reader key's, no one else's", async () => {
    const link = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/plan", password: "open sesame!", ...everyOption } }),
    );
    const other = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/other" } }));
    const full = {
      record: optionFields,
      stats: ["access_count", "last_accessed_at", "password_protected", "short_url", "state"],
      long_url: "https://example.com/plan",
    };
    const seedOnly = { record: [], stats: ["access_count", "last_accessed_at", "short_url"], long_url: null };
    const callers: [string, Record<string, string>, Record<string, unknown>][] = [
      ["its manage token", bearer(link.manage_token), full],
      ["an admin", admin(), full],
      ["a key with links:read", bearer(await key(["links:read"])), full],
      ["anyone", {}, seedOnly],
      ["another link's manage token", bearer(other.manage_token), seedOnly],
      ["a key with links:write alone", bearer(await key(["links:write"])), seedOnly],
      ["a key with visits:read alone", bearer(await key(["visits:read"])), seedOnly],
      ["a person of no workspace of it", bearer(tokens.omar!), seedOnly],
      ["a bearer token that verifies as nothing", bearer("lgk_not-a-key"), seedOnly],
    ];
    for (const [who, headers, expected] of callers) {
      const read: Record<string, unknown> = { who, ...(await readAs(link.short_url, headers)) };
      expect(read).toEqual({ who, ...expected, seedFields: [link.short_url, 0, "string", "string"] });
    }
  });

  test("a workspace's link shows its options to its members and its keys, never to another workspace's", async () => {
    const link = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/team", workspace, ...everyOption }, headers: bearer(tokens.olga!) }),
    );
    expect(link).toMatchObject({ title: "Secret launch", workspace, manage_token: null });
    const teamKey = await readJson(
      await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "read", scopes: ["links:read"] }, headers: bearer(tokens.olga!) }),
    );
    for (const headers of [bearer(tokens.olga!), bearer(tokens.vera!), bearer(teamKey.key)]) {
      expect((await readAs(link.short_url, headers)).record).toEqual(optionFields);
    }
    for (const headers of [{}, bearer(tokens.omar!)]) {
      const record = await readJson(await api.request("GET", `/shorten/${link.short_url}/`, { headers }));
      expect(Object.keys(record).sort()).toEqual([
        "access_count",
        "created_at",
        "domain",
        "link",
        "long_url",
        "public_stats",
        "short_url",
        "updated_at",
        "workspace",
      ]);
      expect(record.workspace).toBeNull();
    }
  });

  test("public_stats opens the visits report, and only it, to anyone; it is set on create or by whoever may change the link", async () => {
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/open-report", title: "kept private" } }));
    await api.request("GET", `/${link.short_url}/`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0" } });
    const report = (headers: Record<string, string> = {}) => api.request("GET", `/shorten/${link.short_url}/visits/`, { headers });
    expect((await report()).status).toBe(401);

    const bad = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: "yes" }, headers: bearer(link.manage_token) });
    expect([bad.status, (await readJson(bad)).error.message]).toEqual([400, "field public_stats: expected boolean"]);
    const opened = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: true }, headers: bearer(link.manage_token) });
    expect((await readJson(opened)).public_stats).toBe(true);

    const open = await report();
    expect(open.status).toBe(200);
    expect((await readJson(open)).totals).toMatchObject({ visits: 1 });
    // That it is open is anyone's to know; the record's options and the raw visits stay private.
    expect(await readJson(await api.request("GET", `/shorten/${link.short_url}/`))).toMatchObject({ public_stats: true });
    expect(await readJson(await api.request("GET", `/shorten/${link.short_url}/`))).not.toHaveProperty("title");
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/export?format=csv`)).status).toBe(401);
    // A code no link has still asks for a credential first.
    expect((await api.request("GET", "/shorten/nolink42/visits/")).status).toBe(401);

    await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: false }, headers: bearer(link.manage_token) });
    expect((await report()).status).toBe(401);
    expect((await report(bearer(link.manage_token))).status).toBe(200);

    const madeOpen = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/born-open", public_stats: true } }));
    expect((await api.request("GET", `/shorten/${madeOpen.short_url}/visits/`)).status).toBe(200);
  });

  test("only a caller who may read the visits opens them: a key without visits:read may not, on create, in bulk or on a change", async () => {
    const writer = bearer(await key(["links:write"]));
    const creator = bearer(await key(["links:create"]));
    const reporter = bearer(await key(["links:write", "visits:read"]));
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/not-yours-to-open" } }));
    const refusal = (scope: string) => ({ error: { code: "forbidden", message: `this API key lacks the scope ${scope}` } });
    const change = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: true }, headers: writer });
    expect([change.status, await readJson(change)]).toEqual([403, refusal("visits:read")]);
    const create = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/open-by-key", public_stats: true }, headers: creator });
    expect([create.status, await readJson(create)]).toEqual([403, refusal("visits:read")]);
    const bulk = await readJson(
      await api.request("POST", "/shorten/bulk/", {
        json: { links: [{ long_url: "https://example.com/bulk-open", public_stats: true }, { long_url: "https://example.com/bulk-closed" }] },
        headers: writer,
      }),
    );
    expect(bulk.results.map((result: { status: number }) => result.status)).toEqual([403, 201]);
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/`)).status).toBe(401);
    // Closing needs no more than changing; opening needs visits:read too.
    expect((await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: false }, headers: writer })).status).toBe(200);
    expect((await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: true }, headers: reporter })).status).toBe(200);
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/`)).status).toBe(200);
  });

  test("an import is no way around it: a workspace key without visits:read has each row that opens its report refused", async () => {
    const keyWith = async (scopes: string[]) =>
      bearer(
        (
          await readJson(
            await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: scopes.join(" "), scopes }, headers: bearer(tokens.olga!) }),
          )
        ).key,
      );
    const importAs = async (headers: Record<string, string>, codes: [open: string, closed: string]) =>
      api.request("POST", "/admin/import?format=linkgeo-ndjson", {
        headers: { ...headers, "content-type": "application/x-ndjson" },
        body: `${JSON.stringify({ short_url: codes[0], long_url: "https://example.com/opened", public_stats: true })}\n${JSON.stringify({ short_url: codes[1], long_url: "https://example.com/closed" })}\n`,
      });
    const writer = await importAs(await keyWith(["links:write"]), [`import-open-${engine}`, `import-closed-${engine}`]);
    expect(writer.status).toBe(200);
    expect(await writer.text()).toContain('{"line":1,"status":"problem","reason":"this API key lacks the scope visits:read"}');
    expect((await api.request("GET", `/shorten/import-open-${engine}/`)).status).toBe(404);
    expect((await api.request("GET", `/shorten/import-closed-${engine}/`)).status).toBe(200);
    const reporter = await importAs(await keyWith(["links:write", "visits:read"]), [`import-open2-${engine}`, `import-closed2-${engine}`]);
    // The import runs as its report is read.
    expect([reporter.status, await reporter.text()]).toEqual([200, expect.stringContaining('"imported":2')]);
    expect((await api.request("GET", `/shorten/import-open2-${engine}/visits/`)).status).toBe(200);
  });

  test("a viewer may not open a workspace link's report; an owner may, and a member of another workspace then reads it like anyone", async () => {
    const link = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/team-report", workspace }, headers: bearer(tokens.olga!) }),
    );
    const byViewer = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: true }, headers: bearer(tokens.vera!) });
    expect(byViewer.status).toBe(403);
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: bearer(tokens.omar!) })).status).toBe(404);
    await api.request("PUT", `/shorten/${link.short_url}/`, { json: { public_stats: true }, headers: bearer(tokens.olga!) });
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: bearer(tokens.omar!) })).status).toBe(200);
    expect((await api.request("GET", `/shorten/${link.short_url}/visits/`)).status).toBe(200);
  });
});
