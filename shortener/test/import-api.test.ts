import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
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
      { summary: { lines: 4, imported: 2, skipped: 1, problems: 1, dry_run: false } },
    ]);
    expect(await api.db.links.find("api-one")).toMatchObject({ longUrl: "https://example.com/one", accessCount: 3, tags: ["x"] });

    const again = await lines(await post("/admin/import?format=linkgeo-ndjson", file));
    expect(again.at(-1)).toEqual({ summary: { lines: 4, imported: 0, skipped: 3, problems: 1, dry_run: false } });
  });

  test("a dry run stores nothing", async () => {
    const answer = await lines(await post("/admin/import?dry_run=true", ndjson({ short_url: "api-dry", long_url: "https://example.com/dry" })));
    expect(answer).toEqual([
      { import: { format: "linkgeo-ndjson", dry_run: true } },
      { summary: { lines: 1, imported: 1, skipped: 0, problems: 0, dry_run: true } },
    ]);
    expect(await api.db.links.find("api-dry")).toBeNull();
  });

  test("tells our CSV by its header", async () => {
    const file = `${exportColumns.join(",")}\r\napi-csv,https://example.com/csv,,,,,,,false,false,[],active,9,,2026-11-01T00:00:00.000Z,2026-11-01T00:00:00.000Z\r\n`;
    const answer = await lines(await post("/admin/import", file, { "content-type": "text/csv" }));
    expect(answer).toEqual([
      { import: { format: "linkgeo-csv", dry_run: false } },
      { summary: { lines: 2, imported: 1, skipped: 0, problems: 0, dry_run: false } },
    ]);
    expect(await api.db.links.find("api-csv")).toMatchObject({ accessCount: 9 });
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
      error: { code: "unsupported_media_type", message: "the file is binary (it holds NUL bytes): send CSV or NDJSON as UTF-8 text" },
    });
  });

  test("answers 415 to a body that is not CSV or NDJSON", async () => {
    const response = await post("/admin/import", "{}", { "content-type": "application/json" });
    expect(response.status).toBe(415);
    expect((await readJson(response)).error.message).toBe("send the file as text/csv, application/x-ndjson, application/ndjson, application/jsonl, text/plain");
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
