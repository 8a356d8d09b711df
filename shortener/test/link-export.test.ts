import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import type { Link } from "../src/links/link.ts";
import type { LinkStore } from "../src/links/link-store.ts";
import { exportColumns } from "../src/transfer/exported-link.ts";
import { linkExport } from "../src/transfer/link-export.ts";
import { visitReportCsv } from "../src/transfer/visit-export.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const t0 = new Date("2026-11-22T07:09:09.291Z");
const now = new Date("2026-12-01T00:00:00.000Z");

/** `count` links in a store that counts its page reads. */
function pagedStore(count: number) {
  const links: Link[] = Array.from({ length: count }, (_, i) => ({
    code: `c${String(i).padStart(6, "0")}`,
    longUrl: `https://example.com/${i}`,
    manageTokenHash: `h${i}`,
    workspaceId: null,
    accessCount: i,
    lastAccessedAt: null,
    createdAt: t0,
    updatedAt: t0,
    expiresAt: null,
    maxVisits: null,
    expiredUrl: null,
    redirectStatus: null,
    passwordHash: null,
    tags: [],
    title: null,
    forwardQuery: false,
    rules: [],
    publicStats: false,
    hold: null,
    holdReason: null,
    createdBy: null,
  }));
  const reads: Array<{ after: string | null; limit: number }> = [];
  const store: Pick<LinkStore, "exportPage"> = {
    async exportPage(after, limit) {
      reads.push({ after, limit });
      const start = after === null ? 0 : links.findIndex((link) => link.code === after) + 1;
      return links.slice(start, start + limit);
    },
  };
  return { store, reads };
}

/** Every link on the default domain, whose host is sho.rt. */
const placeOf = (key: string) => ({ code: key, domain: "sho.rt" });

describe("the link export", () => {
  test("reads the store one page at a time, only as the reader takes them", async () => {
    const { store, reads } = pagedStore(10_000);
    const reader = linkExport(store, { format: "ndjson", now, pageSize: 100, placeOf }).getReader();

    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).split("\n").length).toBe(101);
    // One page taken, at most one more read ahead: never the whole table.
    expect(reads.length).toBeLessThanOrEqual(2);

    let lines = 100;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) lines += new TextDecoder().decode(chunk.value).split("\n").length - 1;
    expect(lines).toBe(10_000);
    expect(reads.length).toBe(101);
    expect(reads.every((read) => read.limit === 100)).toBe(true);
    expect(reads[1]).toEqual({ after: "c000099", limit: 100 });
  });

  test("CSV: the header, then one row per link", async () => {
    const { store } = pagedStore(2);
    const text = await new Response(linkExport(store, { format: "csv", now, placeOf })).text();
    expect(text.split("\r\n")).toEqual([
      exportColumns.join(","),
      "c000000,sho.rt,https://example.com/0,,,,,,,false,false,[],active,0,,2026-11-22T07:09:09.291Z,2026-11-22T07:09:09.291Z,false",
      "c000001,sho.rt,https://example.com/1,,,,,,,false,false,[],active,1,,2026-11-22T07:09:09.291Z,2026-11-22T07:09:09.291Z,false",
      "",
    ]);
  });
});

describe("GET /admin/export/links", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ clock: () => now });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });

  test("exports every field of a link with options, quoting what CSV must, and never the password's hash", async () => {
    const created = await api.request("POST", "/shorten/", {
      json: {
        long_url: "https://example.com/a?x=1,2",
        short_url: "export-a",
        title: 'Quotes "and", commas',
        tags: ["launch", "q4"],
        max_visits: 10,
        expires_at: "2030-01-01T00:00:00Z",
        expired_url: "https://example.com/over",
        redirect_status: 308,
        password: "correct horse battery",
        forward_query: true,
        rules: [{ when: { country: "DE" }, url: "https://example.com/de" }],
      },
    });
    expect(created.status).toBe(201);

    const ndjson = await api.request("GET", "/admin/export/links?format=ndjson", { headers: admin() });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get("content-type")).toBe("application/x-ndjson");
    const exported = {
      short_url: "export-a",
      domain: "localhost",
      long_url: "https://example.com/a?x=1,2",
      title: 'Quotes "and", commas',
      tags: ["launch", "q4"],
      expires_at: "2030-01-01T00:00:00.000Z",
      max_visits: 10,
      expired_url: "https://example.com/over",
      redirect_status: 308,
      password_protected: true,
      forward_query: true,
      rules: [{ when: { country: "DE" }, url: "https://example.com/de" }],
      state: "active",
      access_count: 0,
      last_accessed_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      public_stats: false,
    };
    expect((await ndjson.text()).split("\n")).toEqual([JSON.stringify(exported), ""]);

    const csv = await api.request("GET", "/admin/export/links?format=csv", { headers: admin() });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="links-2026-12-01.csv"');
    expect(await csv.text()).toBe(
      `${exportColumns.join(",")}\r\n` +
        'export-a,localhost,"https://example.com/a?x=1,2","Quotes ""and"", commas",launch q4,2030-01-01T00:00:00.000Z,10,' +
        'https://example.com/over,308,true,true,"[{""when"":{""country"":""DE""},""url"":""https://example.com/de""}]",active,0,,' +
        `${now.toISOString()},${now.toISOString()},false\r\n`,
    );
  });

  test("is for admins and keys with links:read; a key without it or a manage token is 403", async () => {
    const { key: reader } = await api.apiKeys.create({ name: "reader", scopes: ["links:read"] });
    const { key: writer } = await api.apiKeys.create({ name: "writer", scopes: ["links:write"] });
    const link = await api.createLink("https://example.com/mine");
    const status = async (token: string) => (await api.request("GET", "/admin/export/links", { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await status(reader)).toBe(200);
    expect(await status(writer)).toBe(403);
    expect(await status(link.manage_token)).toBe(403);
    expect((await api.request("GET", "/admin/export/links")).status).toBe(401);
  });

  test("answers 400 naming the formats for another", async () => {
    const response = await api.request("GET", "/admin/export/links?format=xml", { headers: admin() });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ error: { code: "invalid_request", message: "format must be one of csv, ndjson" } });
  });
});

describe("the visits export", () => {
  test("lays a report out as one table: the range, the total, the series, each breakdown's top values", () => {
    const csv = visitReportCsv({
      from: "2026-11-01T00:00:00.000Z",
      to: "2026-11-02T12:00:00.000Z",
      granularity: "day",
      visitors: "humans",
      filter: { breakdown: "countries", value: "DE" },
      analytics: "on",
      totals: { visits: 5, humans: 4, bots: 1 },
      series: [
        { t: "2026-11-01T00:00:00.000Z", visits: 2, humans: 2, bots: 0 },
        { t: "2026-11-02T00:00:00.000Z", visits: 3, humans: 2, bots: 1 },
      ],
      top: {
        referrers: [{ value: 'news.example, the "best"', visits: 5, humans: 4, bots: 1 }],
        countries: [{ value: "DE", visits: 5, humans: 4, bots: 1 }],
        browsers: [{ value: "Firefox", visits: 4, humans: 4, bots: 0 }],
        os: [{ value: "other", visits: 5, humans: 4, bots: 1 }],
        devices: [{ value: "desktop", visits: 4, humans: 4, bots: 0 }],
        bots: [{ value: "Googlebot", visits: 1, humans: 0, bots: 1 }],
      },
    });
    expect(csv.split("\r\n")).toEqual([
      "section,value,visits,humans,bots",
      "from,2026-11-01T00:00:00.000Z,,,",
      "to,2026-11-02T12:00:00.000Z,,,",
      "granularity,day,,,",
      "visitors,humans,,,",
      "filter,countries:DE,,,",
      "analytics,on,,,",
      "total,,5,4,1",
      "series,2026-11-01T00:00:00.000Z,2,2,0",
      "series,2026-11-02T00:00:00.000Z,3,2,1",
      'referrers,"news.example, the ""best""",5,4,1',
      "countries,DE,5,4,1",
      "browsers,Firefox,4,4,0",
      "os,other,5,4,1",
      "devices,desktop,4,4,0",
      "bots,Googlebot,1,0,1",
      "",
    ]);
  });

  test("GET /shorten/<code>/visits/export answers the report's CSV to its manage token, and 403 to another", async () => {
    await using api = await startTestShortener({ clock: () => now, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
    const link = await api.createLink("https://example.com/visited");
    const other = await api.createLink("https://example.com/other");
    const path = `/shorten/${link.short_url}/visits/export?format=csv&from=2026-11-29T00:00:00Z`;
    const response = await api.request("GET", path, { headers: { authorization: `Bearer ${link.manage_token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect((await response.text()).split("\r\n").slice(0, 10)).toEqual([
      "section,value,visits,humans,bots",
      "from,2026-11-29T00:00:00.000Z,,,",
      "to,2026-12-01T00:00:00.000Z,,,",
      "granularity,day,,,",
      "visitors,all,,,",
      "filter,,,,",
      "analytics,on,,,",
      "total,,0,0,0",
      "series,2026-11-29T00:00:00.000Z,0,0,0",
      "series,2026-11-30T00:00:00.000Z,0,0,0",
    ]);
    expect((await api.request("GET", path, { headers: { authorization: `Bearer ${other.manage_token}` } })).status).toBe(403);
    expect((await api.request("GET", `${path.replace("csv", "json")}`, { headers: { authorization: `Bearer ${link.manage_token}` } })).status).toBe(400);
  });
});

describe.each(["sqlite", "postgres"] as const)("cells a spreadsheet would run, on %s", (engine) => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ engine, clock: () => now, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const times = `${now.toISOString()},${now.toISOString()}`;

  test("the links export writes titles, tags and aliases anyone may create as text, and real numbers as they are", async () => {
    const links = [
      { long_url: "https://example.com/1", short_url: "-2-3", title: '=HYPERLINK("https://evil.example","click")', tags: ["-2-3", "launch"] },
      { long_url: "https://example.com/2", short_url: "at-sum", title: "@SUM(A1:A9)", tags: ["-5"] },
      { long_url: "https://example.com/3", short_url: "plus", title: "+1+1" },
      { long_url: "https://example.com/4", short_url: "-55", title: "'=1+2" },
      { long_url: "https://example.com/5", short_url: "wide", title: "＝1+2" },
      { long_url: "https://example.com/6", short_url: "tis", title: "'Tis -5 a=b" },
      { long_url: "https://example.com/7", short_url: "semi", title: "x;=1+1;y" },
    ];
    for (const json of links) expect((await api.request("POST", "/shorten/", { json })).status).toBe(201);

    const response = await api.request("GET", "/admin/export/links?format=csv", { headers: admin() });
    expect(response.status).toBe(200);
    expect((await response.text()).split("\r\n")).toEqual([
      exportColumns.join(","),
      `"'-2-3",localhost,https://example.com/1,"'=HYPERLINK(""https://evil.example"",""click"")","'-2-3 launch",,,,,false,false,[],active,0,,${times},false`,
      `-55,localhost,https://example.com/4,"''=1+2",,,,,,false,false,[],active,0,,${times},false`,
      `at-sum,localhost,https://example.com/2,"'@SUM(A1:A9)",-5,,,,,false,false,[],active,0,,${times},false`,
      `plus,localhost,https://example.com/3,"'+1+1",,,,,,false,false,[],active,0,,${times},false`,
      `semi,localhost,https://example.com/7,"x;'=1+1;y",,,,,,false,false,[],active,0,,${times},false`,
      `tis,localhost,https://example.com/6,'Tis -5 a=b,,,,,,false,false,[],active,0,,${times},false`,
      `wide,localhost,https://example.com/5,"'＝1+2",,,,,,false,false,[],active,0,,${times},false`,
      "",
    ]);
  });

  test("a link's visits CSV writes the referrer hosts visitors send as text", async () => {
    const link = await api.createLink("https://example.com/visited");
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const referers = ["http://=1+2/", "http://=1+2/x", "http://=1+2/y", "http://+1+1/", "http://+1+1/", "https://-2-3.example/", "http://x;=1+1;y/"];
    for (const referer of referers) {
      expect((await api.request("GET", `/${link.short_url}/`, { headers: { referer, "user-agent": chrome } })).status).toBe(302);
    }
    const response = await api.request("GET", `/shorten/${link.short_url}/visits/export?format=csv&from=2026-11-29T00:00:00Z`, {
      headers: { authorization: `Bearer ${link.manage_token}` },
    });
    expect(response.status).toBe(200);
    const lines = (await response.text()).split("\r\n");
    expect(lines.filter((line) => line.startsWith("referrers,"))).toEqual([
      `referrers,"'=1+2",3,3,0`,
      `referrers,"'+1+1",2,2,0`,
      `referrers,"'-2-3.example",1,1,0`,
      // A spreadsheet told to split on ; would start a cell at each piece: each is marked too.
      `referrers,"x;'=1+1;y",1,1,0`,
    ]);
  });
});
