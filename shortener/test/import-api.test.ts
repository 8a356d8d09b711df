import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import type { Link } from "../src/links/link.ts";
import { exportColumns } from "../src/transfer/exported-link.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const now = new Date("2026-12-01T00:00:00.000Z");

/** A body that streams `parts` and says how many of them were read. */
function streamed(parts: Array<string | Uint8Array>) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const part = parts[pulled++];
        if (part === undefined) return controller.close();
        controller.enqueue(typeof part === "string" ? new TextEncoder().encode(part) : part);
      },
    },
    // Nothing is pulled until a reader asks.
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled };
}

const ndjson = (...links: object[]) => links.map((link) => `${JSON.stringify(link)}\n`).join("");

describe("POST /admin/import", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ clock: () => now, importMaxBytes: 1024 * 1024 });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const post = (path: string, body: ReadableStream<Uint8Array> | Uint8Array | string | null, headers: Record<string, string> = {}) =>
    api.app.handle(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${api.adminToken()}`, "content-type": "application/x-ndjson", ...headers },
        body,
      }),
    );
  const lines = async (response: Response) =>
    (await response.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  test("streams the file in and answers a line per row not imported, then a summary; a second run changes nothing", async () => {
    const file = ndjson(
      { short_url: "api-one", long_url: "https://example.com/one", tags: ["x"], access_count: 3 },
      { short_url: "admin", long_url: "https://example.com/reserved" },
      { long_url: "https://example.com/no-code", title: "No code" },
      { short_url: "api-bad", long_url: "javascript:alert(1)" },
    );
    const { body } = streamed([file.slice(0, 50), file.slice(50)]);
    const response = await post("/admin/import", body);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    expect(await lines(response)).toEqual([
      { import: { format: "linkgeo-ndjson", dry_run: false } },
      { line: 2, status: "skipped", short_url: "admin", reason: 'short_url "admin" is a reserved word' },
      { line: 4, status: "problem", reason: "long_url must be an http or https URL" },
      { summary: { lines: 4, imported: 2, skipped: 1, problems: 1, dry_run: false, unknown_domains: [] } },
    ]);
    expect(await api.db.links.find("api-one")).toMatchObject({ longUrl: "https://example.com/one", accessCount: 3, tags: ["x"] });

    const again = await lines(await post("/admin/import?format=linkgeo-ndjson", file));
    expect(again.at(-1)).toEqual({ summary: { lines: 4, imported: 0, skipped: 3, problems: 1, dry_run: false, unknown_domains: [] } });
  });

  test("a dry run stores nothing", async () => {
    const answer = await lines(await post("/admin/import?dry_run=true", ndjson({ short_url: "api-dry", long_url: "https://example.com/dry" })));
    expect(answer).toEqual([
      { import: { format: "linkgeo-ndjson", dry_run: true } },
      { summary: { lines: 1, imported: 1, skipped: 0, problems: 0, dry_run: true, unknown_domains: [] } },
    ]);
    expect(await api.db.links.find("api-dry")).toBeNull();
  });

  test("tells our CSV by its header", async () => {
    const file = `${exportColumns.join(",")}\r\napi-csv,,https://example.com/csv,,,,,,,false,false,[],active,9,,2026-11-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,true\r\n`;
    const answer = await lines(await post("/admin/import", file, { "content-type": "text/csv" }));
    expect(answer).toEqual([
      { import: { format: "linkgeo-csv", dry_run: false } },
      { summary: { lines: 2, imported: 1, skipped: 0, problems: 0, dry_run: false, unknown_domains: [] } },
    ]);
    expect(await api.db.links.find("api-csv")).toMatchObject({ accessCount: 9, publicStats: true });
  });

  test("an imported link redirects at once, even where a deleted one's tombstone was cached", async () => {
    const created = await api.createLink("https://example.com/old", "api-reborn");
    await api.request("DELETE", `/shorten/${created.short_url}/`, { headers: { authorization: `Bearer ${created.manage_token}` } });
    expect((await api.request("GET", "/api-reborn")).status).toBe(404);
    await lines(await post("/admin/import", ndjson({ short_url: "api-reborn", long_url: "https://example.com/new" })));
    const response = await api.request("GET", "/api-reborn");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/new");
  });

  test("refuses a declared size over the limit before reading a byte", async () => {
    const { body, pulled } = streamed(["{}\n"]);
    const response = await post("/admin/import", body, { "content-length": String(2 * 1024 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(await readJson(response)).toEqual({ error: { code: "payload_too_large", message: `request body is larger than ${1024 * 1024} bytes` } });
    expect(pulled()).toBe(0);
  });

  test("stops a body that grows past the limit while streaming, with an error line", async () => {
    const row = ndjson({ long_url: "https://example.com/big", title: "x".repeat(100) });
    const parts = Array.from({ length: 12_000 }, () => row);
    const answer = await lines(await post("/admin/import?dry_run=true", streamed(parts).body));
    expect(answer.at(-1)).toEqual({ error: { code: "payload_too_large", message: `request body is larger than ${1024 * 1024} bytes` } });
  });

  test.each([
    ["NUL bytes", new Uint8Array([123, 0, 125, 10])],
    ["gzip", new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])],
  ])("refuses a binary file (%s) with 415 before importing anything", async (_, bytes) => {
    const response = await post("/admin/import", bytes);
    expect(response.status).toBe(415);
    expect(await readJson(response)).toEqual({
      error: { code: "unsupported_media_type", message: "the file is binary (it holds NUL bytes): send CSV or NDJSON as UTF-8 text" },
    });
  });

  test("refuses bytes that are not UTF-8", async () => {
    const response = await post("/admin/import", new Uint8Array([0xff, 0xfe, 0x41, 10]));
    expect(response.status).toBe(415);
  });

  test("a NUL further in ends the import with an error line", async () => {
    const answer = await lines(await post("/admin/import?dry_run=true", streamed([ndjson({ long_url: "https://example.com/a" }), new Uint8Array([0])]).body));
    expect(answer.at(-1)).toEqual({
      error: {
        code: "unsupported_media_type",
        message: "line 2 holds a NUL byte (the file is binary): the lines before it were read; send CSV or NDJSON as UTF-8 text",
      },
    });
  });

  test.each([
    ["JSON", "{}", { "content-type": "application/json" }, "not application/json"],
    // Not "request body is not valid JSON": the route reads its body whatever the media type.
    [
      "NDJSON sent as application/json",
      ndjson({ long_url: "https://example.com/a" }, { long_url: "https://example.com/b" }),
      { "content-type": "application/json" },
      "not application/json",
    ],
    // Not "request body must be application/json".
    ["CSV sent with no Content-Type", new TextEncoder().encode("long_url\nhttps://example.com/\n"), { "content-type": "" }, "none was sent"],
  ])("answers 415 to %s, naming the media types it takes and ?format=", async (_, body, headers, sent) => {
    const response = await post("/admin/import", body, headers);
    expect([response.status, await readJson(response)]).toEqual([
      415,
      {
        error: {
          code: "unsupported_media_type",
          message:
            `an import's Content-Type must be one of text/csv, application/x-ndjson, application/ndjson, application/jsonl, text/plain (${sent}); ` +
            "the file's format is told from its first line, or named with ?format= (one of linkgeo-ndjson, linkgeo-csv, csv, shlink, bitly, yourls)",
        },
      },
    ]);
  });

  test("answers 400 when the format is neither named nor told by the first line", async () => {
    const response = await post("/admin/import", "name,age\nx,1\n", { "content-type": "text/csv" });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toBe("cannot tell the file's format from its first line: name it with ?format=");
    expect((await post("/admin/import?format=xml", "x")).status).toBe(400);
  });

  test("is for admins and keys with the admin scope only", async () => {
    const { key: writer } = await api.apiKeys.create({ name: "writer", scopes: ["links:read", "links:write"] });
    const { key: admin } = await api.apiKeys.create({ name: "admin", scopes: ["admin"] });
    const file = ndjson({ short_url: "api-key", long_url: "https://example.com/key" });
    expect((await post("/admin/import", file, { authorization: `Bearer ${writer}` })).status).toBe(403);
    expect((await post("/admin/import", file, { authorization: `Bearer ${admin}` })).status).toBe(200);
    const link = await api.createLink("https://example.com/managed");
    expect((await post("/admin/import", file, { authorization: `Bearer ${link.manage_token}` })).status).toBe(403);
  });
});

/** A file of one format: its bad rows, each between good ones, and what every good one is stored with. */
interface Probe {
  header?: string;
  good: (n: number) => string;
  /** Each bad row, and the reason it is reported with. */
  bad: Array<[string, string]>;
  /** What every good row is stored with. */
  stored: Partial<Link>;
  /** The domains its rows name that are none here (the summary's unknown_domains). */
  unknownDomains?: string[];
}

const instantOut = (field: string) => `${field} must be from 1970 to 9998`;

// One bad value costs its own row: every engine stores the same rows, and the summary is sent.
const probes: Record<string, Probe> = {
  "linkgeo-ndjson": {
    // The edges of what every engine stores, a NUL and lone surrogates where a title or a tag makes them harmless, and a
    // tag an array literal would read as NULL.
    good: (n) =>
      JSON.stringify({
        short_url: `nd-good-${n}`,
        long_url: `https://example.com/${n}`,
        created_at: "1970-01-01T00:00:00.000Z",
        updated_at: "1970-01-01T00:00:00+00:00",
        last_accessed_at: "9998-12-31T23:59:59.999Z",
        expires_at: "9998-12-31T23:59:59.999Z",
        access_count: Number.MAX_SAFE_INTEGER,
        title: "a\u0000b\ud800",
        tags: ["x\u0000y\udc00", "NULL"],
      }),
    stored: {
      createdAt: new Date(0),
      updatedAt: new Date(0),
      lastAccessedAt: new Date("9998-12-31T23:59:59.999Z"),
      expiresAt: new Date("9998-12-31T23:59:59.999Z"),
      accessCount: Number.MAX_SAFE_INTEGER,
      title: "a b\ufffd",
      tags: ["x-y", "null"],
    },
    bad: [
      [JSON.stringify({ long_url: "https://example.com/b", created_at: "0000-01-01T00:00:00Z" }), instantOut("created_at")],
      [JSON.stringify({ long_url: "https://example.com/b", created_at: "0001-01-01T00:30:00+01:00" }), instantOut("created_at")],
      [JSON.stringify({ long_url: "https://example.com/b", created_at: "9999-12-31T23:59:59-01:00" }), instantOut("created_at")],
      [JSON.stringify({ long_url: "https://example.com/b", created_at: "1969-12-31T23:59:59.999Z" }), instantOut("created_at")],
      [
        JSON.stringify({ long_url: "https://example.com/b", created_at: "2026-02-30T00:00:00Z" }),
        "created_at must be an ISO 8601 date and time with a zone, as 2026-12-31T23:59:59Z",
      ],
      [
        JSON.stringify({ long_url: "https://example.com/b", created_at: "-000001-01-01T00:00:00Z" }),
        "created_at must be an ISO 8601 date and time with a zone, as 2026-12-31T23:59:59Z",
      ],
      [JSON.stringify({ long_url: "https://example.com/b", updated_at: "0000-06-01T00:00:00Z" }), instantOut("updated_at")],
      [JSON.stringify({ long_url: "https://example.com/b", last_accessed_at: "0000-06-01T00:00:00Z" }), instantOut("last_accessed_at")],
      [JSON.stringify({ long_url: "https://example.com/b", expires_at: "0000-06-01T00:00:00Z" }), instantOut("expires_at")],
      ['{"long_url":"https://example.com/b","access_count":1e20}', "access_count must be a whole number"],
      [JSON.stringify({ long_url: "https://example.com/b", access_count: Number.MAX_SAFE_INTEGER + 1 }), "access_count must be a whole number"],
      [JSON.stringify({ long_url: "https://example.com/b", max_visits: 2 ** 31 }), "max_visits must be a whole number from 1 to 2147483647"],
      [JSON.stringify({ long_url: "https://example.com/\u0000" }), "long_url must not contain spaces at its ends or control characters"],
      [
        JSON.stringify({ long_url: "https://example.com/b", expired_url: "https://example.com/\u0000" }),
        "expired_url must not contain spaces at its ends or control characters",
      ],
      [
        JSON.stringify({ long_url: "https://example.com/b", rules: [{ when: { country: "DE" }, url: "https://example.com/\u0000" }] }),
        "rules.0.url must not contain spaces at its ends or control characters",
      ],
    ],
  },
  "linkgeo-csv": {
    header: exportColumns.join(","),
    good: (n) => `csv-good-${n},,https://example.com/${n},,,,,,,false,false,[],active,9,,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z,false`,
    bad: [
      ["csv-bad-1,,https://example.com/b,,,,,,,false,false,[],active,9,,0000-01-01T00:00:00.000Z,,", instantOut("created_at")],
      [
        "csv-bad-2,,https://example.com/b,,,,,,,false,false,[],active,9,,,+010000-01-01T00:00:00.000Z,",
        "updated_at must be an ISO 8601 date and time with a zone, as 2026-12-31T23:59:59Z",
      ],
      ["csv-bad-3,,https://example.com/b,,,,,,,false,false,[],active,99999999999999999999,,,,", "access_count must be a whole number"],
    ],
    stored: { createdAt: new Date(0), accessCount: 9 },
  },
  shlink: {
    header: '"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"',
    good: (n) => `"1970-01-01T00:00:00Z","s.test","sh-good-${n}","https://s.test/sh-good-${n}","https://example.com/${n}","","",3`,
    bad: [
      [
        '"0000-01-01T00:00:00Z","s.test","sh-bad","https://s.test/sh-bad","https://example.com/b","","",3',
        `${instantOut("createdAt")}, not "0000-01-01T00:00:00Z"`,
      ],
      [
        '"9999-12-31T23:59:59-01:00","s.test","sh-bad","https://s.test/sh-bad","https://example.com/b","","",3',
        `${instantOut("createdAt")}, not "9999-12-31T23:59:59-01:00"`,
      ],
      [
        '"2024-05-01T00:00:00Z","s.test","sh-bad","https://s.test/sh-bad","https://example.com/b","","",99999999999999999999',
        'visits must be a whole number, not "99999999999999999999"',
      ],
    ],
    stored: { createdAt: new Date(0), accessCount: 3 },
    // Its rows name Shlink's domain, which is none here: they go on the default domain, and the summary says so.
    unknownDomains: ["s.test"],
  },
  bitly: {
    header: "long_url,link,title,created_at,clicks",
    good: (n) => `https://example.com/${n},bit.ly/bl-good-${n},,0000000000,1`,
    bad: [
      ["https://example.com/b,bit.ly/bl-bad,,1969-12-31 23:59:59,1", `${instantOut("created")}, not "1969-12-31 23:59:59"`],
      ["https://example.com/b,bit.ly/bl-bad,,0000-01-01,1", `${instantOut("created")}, not "0000-01-01"`],
    ],
    stored: { createdAt: new Date(0), accessCount: 1 },
  },
  yourls: {
    header: "keyword,url,title,timestamp,ip,clicks",
    good: (n) => `yl-good-${n},https://example.com/${n},,9998-12-31 23:59:59,192.0.2.1,1`,
    bad: [
      ["yl-bad,https://example.com/b,,1970-01-01 00:00:00+01:00,192.0.2.1,1", `${instantOut("timestamp")}, not "1970-01-01 00:00:00+01:00"`],
      ["yl-bad,https://example.com/b,,9998-12-31 23:59:59-00:01,192.0.2.1,1", `${instantOut("timestamp")}, not "9998-12-31 23:59:59-00:01"`],
    ],
    stored: { createdAt: new Date("9998-12-31T23:59:59.000Z"), accessCount: 1 },
  },
};

describe.each(["sqlite", "postgres"] as const)("POST /admin/import on %s: a bad row, or a file that breaks, costs no other row", (engine) => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ clock: () => now, engine });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const post = (format: string, body: string | ReadableStream<Uint8Array>) =>
    api.app.handle(
      new Request(`http://localhost/admin/import?format=${format}`, {
        method: "POST",
        headers: { authorization: `Bearer ${api.adminToken()}`, "content-type": "text/plain" },
        body,
      }),
    );

  test.each(Object.entries(probes))("%s: each bad row is reported with its line, every good one is stored, and the summary is sent", async (format, probe) => {
    const first = probe.header === undefined ? 1 : 2;
    const rows = [...probe.bad.flatMap(([row], n) => [probe.good(n), row]), probe.good(probe.bad.length)];
    const file = [...(probe.header === undefined ? [] : [probe.header]), ...rows].join("\n");

    const answer = (await (await post(format, `${file}\n`)).text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));

    expect(answer).toEqual([
      { import: { format, dry_run: false } },
      ...probe.bad.map(([, reason], n) => ({ line: first + 2 * n + 1, status: "problem", reason })),
      {
        summary: {
          lines: first + rows.length - 1,
          imported: probe.bad.length + 1,
          skipped: 0,
          problems: probe.bad.length,
          dry_run: false,
          unknown_domains: probe.unknownDomains ?? [],
        },
      },
    ]);
    const prefix = { "linkgeo-ndjson": "nd", "linkgeo-csv": "csv", shlink: "sh", bitly: "bl", yourls: "yl" }[format];
    const codes = Array.from({ length: probe.bad.length + 1 }, (_, n) => `${prefix}-good-${n}`);
    const stored = (await api.db.links.findMany(codes)).sort((a, b) => a.code.localeCompare(b.code));
    expect(stored).toEqual(codes.sort().map((code) => expect.objectContaining({ ...probe.stored, code })));
  });

  test.each([
    ["turns binary (a NUL byte)", new Uint8Array([0x7b, 0, 0x7d, 10]), "holds a NUL byte (the file is binary)"],
    ["is no longer UTF-8", new Uint8Array([0xff, 0xfe, 10]), "is not UTF-8 text"],
    [
      "has one Latin-1 byte",
      new Uint8Array([...new TextEncoder().encode('{"short_url":"caf'), 0xe9, ...new TextEncoder().encode('"}\n')]),
      "is not UTF-8 text",
    ],
  ])("a file that %s midway keeps every row before it, in its chunk too: stored, then the error line names the line", async (_, bad, problem) => {
    // 1,100 good rows (more than a batch), the bad line and one more, sent in one chunk and in pieces that cut the rows anywhere.
    const fileOf = (code: string) => {
      const good = Array.from({ length: 1_100 }, (_, n) => ({ short_url: `${code}-${n}`, long_url: `https://example.com/before/${n}` }));
      const after = new TextEncoder().encode(ndjson({ short_url: `${code}-after`, long_url: "https://example.com/after" }));
      return { code, good, file: new Uint8Array([...new TextEncoder().encode(ndjson(...good)), ...bad, ...after]) };
    };
    for (const [{ code, good, file }, cut] of [
      [fileOf(`nd-whole-${bad[1]}-${bad.length}`), false],
      [fileOf(`nd-cut-${bad[1]}-${bad.length}`), true],
    ] as const) {
      const pieces = cut ? [file.subarray(0, 777), file.subarray(777, file.length - 5), file.subarray(file.length - 5)] : [file];
      const answer = (await (await post("linkgeo-ndjson", streamed(pieces).body)).text())
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      expect(answer.filter((line) => !("progress" in line))).toEqual([
        { import: { format: "linkgeo-ndjson", dry_run: false } },
        {
          error: {
            code: "unsupported_media_type",
            message: `line 1101 ${problem}: the lines before it were read; send CSV or NDJSON as UTF-8 text`,
          },
        },
      ]);
      const stored = await api.db.links.findMany(good.map((link) => link.short_url));
      expect(stored.length).toBe(good.length);
      expect(await api.db.links.find(`${code}-after`)).toBeNull();
    }
  });

  test("a file binary or not UTF-8 from its first line is a 415, before anything is imported", async () => {
    for (const [file, message] of [
      [new Uint8Array([0x7b, 0, 0x7d, 10]), "the file is binary (it holds NUL bytes): send CSV or NDJSON as UTF-8 text"],
      [new Uint8Array([0xff, 0xfe, 10, 0x7b, 0x7d]), "the file is not UTF-8 text: send CSV or NDJSON as UTF-8"],
    ] as const) {
      const response = await post("linkgeo-ndjson", streamed([file]).body);
      expect([response.status, await readJson(response)]).toEqual([415, { error: { code: "unsupported_media_type", message } }]);
    }
  });
});
