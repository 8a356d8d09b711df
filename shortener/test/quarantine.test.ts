import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@linkgeo/shared";
import { readJson, waitFor } from "@linkgeo/testing";
import { ThreatFeeds } from "../src/threats/threat-feeds.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/** A clock the test moves: the recheck's schedule and lease are read from it. */
function movableClock(start: Date) {
  let now = start.getTime();
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const recheckEveryMs = 10_000;

describe.each(["sqlite", "postgres"] as const)("links whose destination becomes listed, on %s", (engine) => {
  let api: TestShortener;
  let feeds: ThreatFeeds;
  let dir: string;
  let feedFile: string;
  const time = movableClock(new Date());
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const record = async (code: string) => (await readJson(await api.request("GET", `/shorten/${code}/`, { headers: admin() }))) as Record<string, unknown>;
  const list = (domains: string[]) => {
    writeFileSync(feedFile, `${domains.join("\n")}\n`);
    // A new modification time is what the feeds look for; the size alone may not change.
    return feeds.refresh();
  };
  const nextPass = () => {
    time.advance(recheckEveryMs + 1);
    return api.recheck!.runOnce();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "linkgeo-quarantine-"));
    feedFile = join(dir, "evil.txt");
    writeFileSync(feedFile, "# nothing listed yet\n");
    feeds = new ThreatFeeds({ paths: [feedFile], log: silentLogger });
    await feeds.refresh();
    api = await startTestShortener({ engine, threats: feeds, clock: time.clock, recheckEveryMs });
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the next pass quarantines it: visitors get the warning (451 for programs), the count stays, owner and admin see the list", async () => {
    const link = await api.createLink("https://pay.later-listed.example/login");
    const clean = await api.createLink("https://fine.example/page");
    expect((await api.request("GET", `/${link.short_url}`)).status).toBe(302);
    await api.recheck!.runOnce();
    await list(["later-listed.example"]);

    const outcome = await nextPass();
    expect(outcome).toMatchObject({ ran: true, quarantined: 1, released: 0 });
    expect(outcome.checked).toBeGreaterThanOrEqual(2);

    const page = await api.request("GET", `/${link.short_url}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(451);
    expect(page.headers.get("link-page")).toBe("quarantined");
    expect(await page.text()).not.toContain("later-listed");
    const json = await api.request("GET", `/${link.short_url}`);
    expect(json.status).toBe(451);
    expect(((await readJson(json)) as { error: { code: string } }).error.code).toBe("quarantined");
    expect((await api.request("HEAD", `/${link.short_url}`)).status).toBe(451);
    await api.request("GET", `/${link.short_url}`);

    expect(await record(link.short_url)).toMatchObject({ state: "quarantined", hold_reason: "evil.txt", access_count: 1 });
    const owner = await api.request("GET", `/shorten/${link.short_url}/`, { headers: { authorization: `Bearer ${link.manage_token}` } });
    expect(await readJson(owner)).toMatchObject({ state: "quarantined", hold_reason: "evil.txt" });
    expect(await record(clean.short_url)).toMatchObject({ state: "active", hold_reason: null });
    expect((await api.request("GET", `/${clean.short_url}`)).status).toBe(302);

    const listed = async (state: string) =>
      (
        (await readJson(await api.request("GET", `/shorten/?state=${state}&page_size=100`, { headers: admin() }))) as { results: Array<{ short_url: string }> }
      ).results.map((row) => row.short_url);
    expect(await listed("quarantined")).toEqual([link.short_url]);
    expect(await listed("active")).not.toContain(link.short_url);
  });

  test("a domain's own addresses are not sent to once a list names them, and are again once it does not", async () => {
    const host = `brand-${engine}.example.net`;
    const made = await api.request("POST", "/admin/domains", {
      json: {
        host,
        root_url: "https://soon.later-bad.example/home",
        not_found_url: "https://soon.later-bad.example/404",
        expired_url: "https://soon.later-bad.example/gone",
      },
      headers: admin(),
    });
    expect(made.status).toBe(201);
    const onDomain = { "x-forwarded-host": host };
    const capped = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://fine.example/once", domain: host, max_visits: 1 }, headers: admin() }),
    );
    await api.request("GET", `/${capped.short_url}`, { headers: onDomain });
    const where = async () =>
      Promise.all(
        ["/", "/no-such-code", `/${capped.short_url}`].map(async (path) => {
          const answer = await api.request("GET", path, { headers: onDomain });
          return [answer.status, answer.headers.get("location")];
        }),
      );
    expect(await where()).toEqual([
      [302, "https://soon.later-bad.example/home"],
      [302, "https://soon.later-bad.example/404"],
      [302, "https://soon.later-bad.example/gone"],
    ]);
    await list(["later-bad.example"]);
    expect(await where()).toEqual([
      [404, null],
      [404, null],
      [410, null],
    ]);
    await list([]);
    expect((await where())[0]).toEqual([302, "https://soon.later-bad.example/home"]);
  });

  test("a pass runs once per schedule: asked again before it is due, it does nothing", async () => {
    await nextPass();
    expect(await api.recheck!.runOnce()).toMatchObject({ ran: false, checked: 0 });
  });

  test("an allow-list entry lets the next pass release it; a report's quarantine stays", async () => {
    const listedAgain = await api.createLink("https://ok.example/page");
    await list(["later-listed.example", "ok.example"]);
    await nextPass();
    expect(await record(listedAgain.short_url)).toMatchObject({ state: "quarantined" });
    // An admin's own quarantine, from a report, is never the recheck's to lift.
    await api.request("POST", "/report", { json: { short_url: listedAgain.short_url, reason: "phishing" } });
    const [report] = ((await readJson(await api.request("GET", "/admin/reports", { headers: admin() }))) as { results: Array<{ id: number }> }).results;
    await api.request("POST", `/admin/reports/${report!.id}/actions`, { json: { action: "quarantine" }, headers: admin() });

    const allowed = await api.request("POST", "/admin/allow-list", { json: { domain: "later-listed.example" }, headers: admin() });
    expect(allowed.status).toBe(201);
    await api.request("POST", "/admin/allow-list", { json: { domain: "ok.example" }, headers: admin() });
    expect(await nextPass()).toMatchObject({ ran: true, released: 1 });
    const released = (await readJson(await api.request("GET", "/shorten/?state=active&page_size=100", { headers: admin() }))) as {
      results: Array<{ long_url: string; state: string }>;
    };
    expect(released.results.map((row) => row.long_url)).toContain("https://pay.later-listed.example/login");
    expect(await record(listedAgain.short_url)).toMatchObject({ state: "quarantined", hold_reason: "report" });
  });
});

describe("the recheck's schedule", () => {
  test("started, it runs by itself: a link whose destination a list names is quarantined within a period", async () => {
    const dir = mkdtempSync(join(tmpdir(), "linkgeo-schedule-"));
    const feedFile = join(dir, "scheduled.txt");
    writeFileSync(feedFile, "# nothing yet\n");
    const feeds = new ThreatFeeds({ paths: [feedFile], log: silentLogger });
    await feeds.refresh();
    await using api = await startTestShortener({ threats: feeds, recheckEveryMs: 100 });
    const link = await api.createLink("https://soon-listed.example/");
    api.recheck!.start();
    try {
      // Listed after the first pass has begun: a later one, by the schedule, finds it.
      writeFileSync(feedFile, "soon-listed.example\n");
      await feeds.refresh();
      await waitFor("the scheduled pass to quarantine the link", async () => (await api.db.links.find(link.short_url))?.hold === "quarantined");
    } finally {
      api.recheck!.stop();
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("a list missing here", () => {
  test("the pass waits until every feed is read: a link a missing list quarantined is not let go", async () => {
    const dir = mkdtempSync(join(tmpdir(), "linkgeo-missing-"));
    const present = join(dir, "present.txt");
    const absent = join(dir, "absent.txt");
    writeFileSync(present, "other.example\n");
    const feeds = new ThreatFeeds({ paths: [present, absent], log: silentLogger });
    await feeds.refresh();
    await using api = await startTestShortener({ threats: feeds, recheckEveryMs });
    const link = await api.createLink("https://held-by-absent.example/");
    await api.db.links.update(link.short_url, { hold: "quarantined", holdReason: "absent.txt" }, new Date());

    expect(feeds.complete).toBe(false);
    expect(await api.recheck!.runOnce()).toMatchObject({ ran: false });
    expect(await api.db.links.find(link.short_url)).toMatchObject({ hold: "quarantined", holdReason: "absent.txt" });

    // Once it is read and no longer names the link, the link goes.
    writeFileSync(absent, "# empty now\n");
    await feeds.refresh();
    expect(await api.recheck!.runOnce()).toMatchObject({ ran: true, released: 1 });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.each(["sqlite", "postgres"] as const)("the recheck's lease and place, on %s", (engine) => {
  let api: TestShortener;
  const time = movableClock(new Date());

  beforeAll(async () => {
    api = await startTestShortener({ engine, clock: time.clock });
    for (let i = 0; i < 5; i++) await api.createLink(`https://example.com/${i}`);
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  test("a hold changes only if it is still the one the pass read: an admin's change meanwhile is kept", async () => {
    const link = (await api.db.links.exportPage(null, 1))[0]!;
    const at = time.clock();
    expect(await api.db.links.update(link.code, { hold: "disabled", holdReason: "report" }, at)).toMatchObject({ hold: "disabled" });
    const stale = { hold: null, reason: null };
    expect(await api.db.links.update(link.code, { hold: "quarantined", holdReason: "evil.txt" }, at, stale)).toBeNull();
    expect(await api.db.links.find(link.code)).toMatchObject({ hold: "disabled", holdReason: "report" });
    const current = { hold: "disabled" as const, reason: "report" };
    expect(await api.db.links.update(link.code, { hold: null, holdReason: null }, at, current)).toMatchObject({ hold: null, holdReason: null });
  });

  test("one holder at a time; a pass stopped midway is taken up from its cursor once its lease runs out", async () => {
    const store = api.db.recheck;
    const leaseMs = 60_000;
    const lease = () => new Date(time.clock().getTime() + leaseMs);
    expect(await store.claim("a", time.clock(), lease())).toEqual({ cursor: null });
    expect(await store.advance("a", "c2", lease())).toBe(true);
    // Another replica finds it held; "a" stops (killed) and its lease runs out.
    expect(await store.claim("b", time.clock(), lease())).toBeUndefined();
    time.advance(leaseMs + 1);
    expect(await store.claim("b", time.clock(), lease())).toEqual({ cursor: "c2" });
    expect(await store.advance("a", "c3", lease())).toBe(false);
    await store.finish("b", new Date(time.clock().getTime() + 10_000));
    expect(await store.claim("b", time.clock(), lease())).toBeUndefined();
    time.advance(10_001);
    expect(await store.claim("b", time.clock(), lease())).toEqual({ cursor: null });
    await store.finish("b", time.clock());
  });
});

describe.each(["sqlite", "postgres"] as const)("reports and the admins' queue, on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const report = (body: unknown) => api.request("POST", "/report", { json: body });
  const queue = async (state = "open") =>
    (
      (await readJson(await api.request("GET", `/admin/reports?state=${state}`, { headers: admin() }))) as {
        results: Array<{
          id: number;
          reason: string;
          note: string | null;
          resolution: string | null;
          link: { short_url: string; state: string; hold_reason: string | null; access_count: number; long_url: string } | null;
          creator: { kind: string; id: string | null };
        }>;
      }
    ).results;
  const act = (id: number, action: string, headers: Record<string, string> = admin()) =>
    api.request("POST", `/admin/reports/${id}/actions`, { json: { action }, headers });
  const reportOf = async (code: string) => (await queue("all")).find((row) => row.link?.short_url === code)!;
  const newKey = async () =>
    (await readJson(await api.request("POST", "/admin/api-keys", { json: { name: "maker", scopes: ["links:create"] }, headers: admin() }))) as {
      id: string;
      key: string;
    };

  beforeAll(async () => {
    api = await startTestShortener({ engine });
    await api.createLink("https://example.com/xyz", "xyz");
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  test("anyone reports a link by its whole address, with or without its scheme, or its code; the queue shows it with the link, its visits and who made it", async () => {
    const key = await newKey();
    const made = await api.request("POST", "/shorten/", { json: { long_url: "https://phish.example/login" }, headers: { authorization: `Bearer ${key.key}` } });
    const link = (await readJson(made)) as { short_url: string; link: string };
    await api.request("GET", `/${link.short_url}`);
    expect((await report({ short_url: link.link, reason: "phishing", note: "asks for my\u0000 bank password " })).status).toBe(202);
    expect((await report({ short_url: link.short_url, reason: "scam" })).status).toBe(202);
    expect((await report({ short_url: link.link.replace(/^http:\/\//, ""), reason: "malware" })).status).toBe(202);

    const reports = (await queue()).filter((row) => row.link?.short_url === link.short_url);
    expect(reports.map((row) => [row.reason, row.note])).toEqual([
      ["malware", null],
      ["scam", null],
      ["phishing", "asks for my bank password"],
    ]);
    expect(reports[0]).toMatchObject({
      resolution: null,
      link: { long_url: "https://phish.example/login", access_count: 1, state: "active" },
      creator: { kind: "api-key", id: key.id },
    });
  });

  test.each([
    [{ short_url: "nope0000", reason: "phishing" }, 404],
    [{ short_url: "xyz", reason: "bad" }, 400],
    [{ short_url: "xyz", reason: "spam", note: "n".repeat(1001) }, 400],
    // 1,000 characters, each two UTF-16 units: within the note's bound (the link is unknown: 404).
    [{ short_url: "nope0000", reason: "spam", note: "🎉".repeat(1000) }, 404],
    [{ short_url: "xyz", reason: "spam", extra: 1 }, 400],
    [{ short_url: "xyz", reason: "spam", note: 5 }, 400],
    [{ reason: "spam" }, 400],
    [{ short_url: "http://localhost/xyz/", reason: "spam", domain: "elsewhere.example" }, 404],
  ])("%j is %d", async (body, status) => {
    expect((await report(body)).status).toBe(status);
  });

  test("a link's open reports are bounded, sent at once too: more are received, not kept", async () => {
    const link = await api.createLink("https://flood.example/");
    const answers = await Promise.all(Array.from({ length: 25 }, () => report({ short_url: link.short_url, reason: "spam" })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(202));
    expect((await queue()).filter((row) => row.link?.short_url === link.short_url)).toHaveLength(20);
  });

  test("quarantine and disable hold the link and resolve every open report of it", async () => {
    const held = await api.createLink("https://held.example/");
    await report({ short_url: held.short_url, reason: "malware" });
    await report({ short_url: held.short_url, reason: "malware" });
    const first = await reportOf(held.short_url);
    const acted = await act(first.id, "quarantine");
    expect(acted.status).toBe(200);
    expect(await readJson(acted)).toMatchObject({ resolution: "quarantine", link: { state: "quarantined", hold_reason: "report" } });
    // Its destinations are the admins' while it is held: the owner may not trade them, an admin may.
    const owner = { authorization: `Bearer ${held.manage_token}` };
    const moved = await api.request("PUT", `/shorten/${held.short_url}/`, { json: { long_url: "https://fresh.example/" }, headers: owner });
    expect(await readJson(moved)).toEqual({
      error: { code: "forbidden", message: `short URL "${held.short_url}" is quarantined: its destinations may not change while it is held` },
    });
    expect((await api.request("PUT", `/shorten/${held.short_url}/`, { json: { title: "still mine" }, headers: owner })).status).toBe(200);
    expect((await api.request("PUT", `/shorten/${held.short_url}/`, { json: { long_url: "https://fresh.example/" }, headers: admin() })).status).toBe(200);
    expect((await queue()).filter((row) => row.link?.short_url === held.short_url)).toEqual([]);
    expect((await api.request("GET", `/${held.short_url}`)).status).toBe(451);
    // Nor may the owner delete it, which would free its short URL for a new link: an admin may.
    const deleted = await api.request("DELETE", `/shorten/${held.short_url}/`, { headers: owner });
    expect([deleted.status, await readJson(deleted)]).toEqual([
      403,
      { error: { code: "forbidden", message: `short URL "${held.short_url}" is quarantined: it may not be deleted while it is held` } },
    ]);
    const again = await api.request("POST", "/shorten/", { json: { long_url: "https://fresh-two.example/", short_url: held.short_url } });
    expect(again.status).toBe(409);
    expect((await api.request("GET", `/${held.short_url}`)).status).toBe(451);

    const gone = await api.createLink("https://gone.example/");
    await report({ short_url: gone.short_url, reason: "illegal" });
    expect(await readJson(await act((await reportOf(gone.short_url)).id, "disable"))).toMatchObject({ link: { state: "disabled" } });
    const visit = await api.request("GET", `/${gone.short_url}`);
    expect(visit.status).toBe(410);
    expect(await readJson(visit)).toEqual({ error: { code: "gone", message: "this short link has been disabled by this service's admins" } });
    const page = await api.request("GET", `/${gone.short_url}`, { headers: { accept: "text/html" } });
    expect([page.status, page.headers.get("link-page")]).toEqual([410, "disabled"]);
    expect(await record(gone.short_url)).toMatchObject({ access_count: 0 });
  });

  test("ban_domain puts the destination's host on the ban list: the link is quarantined, and no new link may lead there", async () => {
    const link = await api.createLink("https://www.banned-here.example/a");
    await report({ short_url: link.short_url, reason: "phishing" });
    const acted = await readJson(await act((await reportOf(link.short_url)).id, "ban_domain"));
    expect(acted).toMatchObject({ resolution: "ban_domain", link: { state: "quarantined", hold_reason: "report" } });
    const bans = (await readJson(await api.request("GET", "/admin/ban-list", { headers: admin() }))) as { results: Array<{ id: number; domain: string }> };
    expect(bans.results.map((entry) => entry.domain)).toEqual(["www.banned-here.example"]);
    const again = await api.request("POST", "/shorten/", { json: { long_url: "https://www.banned-here.example/other" } });
    expect(await readJson(again)).toEqual({
      error: { code: "harmful_destination", message: 'long_url is on the threat list "banned": it may not be a link\'s destination here' },
    });
    expect((await api.request("DELETE", `/admin/ban-list/${bans.results[0]!.id}`, { headers: admin() })).status).toBe(204);
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://www.banned-here.example/other" } })).status).toBe(201);

    // A single-label host is no name a ban lists: a 409 that says what to do instead, the report left open.
    const intranet = await api.createLink("http://intranet/phish");
    await report({ short_url: intranet.short_url, reason: "phishing" });
    const refused = await act((await reportOf(intranet.short_url)).id, "ban_domain");
    expect([refused.status, await readJson(refused)]).toEqual([
      409,
      {
        error: { code: "conflict", message: 'the destination\'s host "intranet" is no name a ban can list (a single label, say): quarantine the link instead' },
      },
    ]);
    expect((await reportOf(intranet.short_url)).resolution).toBeNull();
  });

  test("revoke_key revokes the key that made the link and leaves the report open; a link no key made is a 409", async () => {
    const key = await newKey();
    const made = (await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://spam.example/" }, headers: { authorization: `Bearer ${key.key}` } }),
    )) as { short_url: string };
    await report({ short_url: made.short_url, reason: "spam" });
    const id = (await reportOf(made.short_url)).id;
    expect(await readJson(await act(id, "revoke_key"))).toMatchObject({ resolution: null, creator: { kind: "api-key", id: key.id } });
    const refused = await api.request("POST", "/shorten/", { json: { long_url: "https://spam.example/2" }, headers: { authorization: `Bearer ${key.key}` } });
    expect(refused.status).toBe(401);
    expect((await act(id, "revoke_key")).status).toBe(409);

    const anonymous = await api.createLink("https://anon.example/");
    await report({ short_url: anonymous.short_url, reason: "spam" });
    const refusal = await act((await reportOf(anonymous.short_url)).id, "revoke_key");
    expect(await readJson(refusal)).toEqual({ error: { code: "conflict", message: "no API key made this link" } });
  });

  test("dismiss resolves and leaves the link as it was; unknown ids, actions and callers are refused", async () => {
    const link = await api.createLink("https://fine.example/");
    await report({ short_url: link.short_url, reason: "other" });
    const id = (await reportOf(link.short_url)).id;
    expect(await readJson(await act(id, "dismiss"))).toMatchObject({ resolution: "dismiss", link: { state: "active" } });
    expect((await api.request("GET", `/${link.short_url}`)).status).toBe(302);
    expect((await act(999_999, "dismiss")).status).toBe(404);
    expect((await api.request("POST", "/admin/reports/abc/actions", { json: { action: "dismiss" }, headers: admin() })).status).toBe(404);
    expect(await readJson(await act(id, "explode"))).toEqual({
      error: { code: "invalid_request", message: "action must be one of quarantine, disable, ban_domain, revoke_key, dismiss" },
    });
    expect((await api.request("GET", "/admin/reports")).status).toBe(401);
    const key = await newKey();
    expect((await api.request("GET", "/admin/reports", { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(403);
    expect((await act(id, "dismiss", { authorization: `Bearer ${key.key}` })).status).toBe(403);
    const log = (await readJson(await api.request("GET", "/admin/audit", { headers: admin() }))) as { results: Array<{ action: string; target: string }> };
    expect(log.results).toContainEqual(expect.objectContaining({ action: "report.resolve", target: `${link.short_url} dismiss` }));
  });

  test("report is a reserved word: no alias takes it", async () => {
    const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", short_url: "report" } });
    expect(response.status).toBe(400);
  });

  const record = async (code: string) => (await readJson(await api.request("GET", `/shorten/${code}/`, { headers: admin() }))) as Record<string, unknown>;
});
