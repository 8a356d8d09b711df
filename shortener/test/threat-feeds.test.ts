import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@linkgeo/shared";
import { parseThreatEntries } from "../src/threats/threat-entries.ts";
import { parseThreatFeedPaths, ThreatFeeds } from "../src/threats/threat-feeds.ts";
import { hashKeys } from "../src/threats/hashed-keys.ts";
import { ThreatList } from "../src/threats/threat-list.ts";

const fixtures = join(import.meta.dir, "fixtures/threat-feeds");
const feed = (name: string) => join(fixtures, name);
const entriesOf = async (name: string) => parseThreatEntries(await Bun.file(feed(name)).text());

describe("a threat feed's entries, in each format people download", () => {
  test.each([
    ["urlhaus.csv", { urls: ["http://malware.example.net/payload.exe", "https://198.51.100.23/bins/x86"], hosts: [], skipped: 0 }],
    [
      "urlhaus-urls.txt",
      {
        urls: ["http://dropper.example.org/a.bin", "https://evil.example.com/Path%20Two?x=1", "https://phish-form.example/login?email=a@b.c&next=/account"],
        hosts: [],
        skipped: 0,
      },
    ],
    ["phishtank.csv", { urls: ["https://login.bank-example.test/verify?acct=1", "https://quoted.example.test/a,b"], hosts: [], skipped: 0 }],
    // An entry without a URL string is skipped, not an error: a feed is someone else's file.
    ["phishtank.json", { urls: ["http://secure-update.example.info/login"], hosts: [], skipped: 2 }],
    // The hosts file's own names (localhost) are no threat; a line that is no entry is skipped.
    ["hosts.txt", { urls: [], hosts: ["ads.tracker.example", "phish.example.co.uk"], skipped: 1 }],
    ["domains.txt", { urls: [], hosts: ["scam-shop.example", "fake-wallet.example"], skipped: 0 }],
    ["adblock.txt", { urls: [], hosts: ["coin-miner.example", "tracking.example"], skipped: 0 }],
    // hagezi's adblock lists begin with their `[Adblock Plus]` header: a list, not PhishTank's JSON.
    ["adblock-header-first.txt", { urls: [], hosts: ["coin-miner.example", "phish-kit.example"], skipped: 0 }],
    // A wildcard list's `*.name` lists the name and every name under it, as a bare name does; a lone `*` is no entry.
    ["wildcard-domains.txt", { urls: [], hosts: ["coin-miner.example", "phish-kit.example", "plain.example"], skipped: 2 }],
  ])("%s", async (name, expected) => {
    expect(await entriesOf(name)).toEqual(expected);
  });

  test.each(["x.example:80", "x.example:8080", "*.x.example", "a..example", "-a.example", `${"a".repeat(64)}.example`, `${"a.".repeat(127)}example`, "single"])(
    "%s is no host entry: skipped, never stored to match nothing",
    (line) => {
      expect(parseThreatEntries(`||${line}^\n`)).toEqual({ urls: [], hosts: [], skipped: 1 });
    },
  );

  test("a bracketed IPv6 address on a line of its own is an entry, not an adblock header", () => {
    expect(parseThreatEntries("[Adblock Plus 2.0]\n[2001:db8::1]\n")).toEqual({ urls: [], hosts: ["[2001:db8::1]"], skipped: 0 });
  });

  test("a JSON file that does not parse, or is no array, lists nothing", () => {
    expect(parseThreatEntries("[{")).toEqual({ urls: [], hosts: [], skipped: 1 });
    expect(parseThreatEntries('[1, {"url": "http://x.example/"}]').urls).toEqual(["http://x.example/"]);
  });
});

describe("the lists, asked about a destination", () => {
  const names = ["urlhaus.csv", "urlhaus-urls.txt", "phishtank.csv", "hosts.txt", "domains.txt"];
  const hashed = async (name: string) => {
    const entries = await entriesOf(name);
    return { name, urls: hashKeys(entries.urls), hosts: hashKeys(entries.hosts) };
  };
  const lists = (async () => ThreatList.build(await Promise.all(names.map(hashed))))();
  const listing = async (url: string) => (await lists).listing(new URL(url));

  test.each([
    // A listed URL, spelled as a link may spell it: the host's case, the default port, a fragment.
    ["http://MALWARE.example.net:80/payload.exe#now", "urlhaus.csv"],
    ["https://evil.example.com/Path%20Two?x=1", "urlhaus-urls.txt"],
    ["https://198.51.100.23/bins/x86", "urlhaus.csv"],
    // Spellings a server takes for the same address: a trailing dot, escaped letters, runs of slashes, dot segments,
    // an empty query or empty parts of one, lower-case escapes.
    ["http://malware.example.net./payload.exe", "urlhaus.csv"],
    ["http://malware.example.net/%70ayload%2Eexe", "urlhaus.csv"],
    ["http://malware.example.net//payload.exe?", "urlhaus.csv"],
    ["http://malware.example.net/bins/%2E%2E/payload.exe", "urlhaus.csv"],
    ["https://evil.example.com/Path%20Two?x=%31&", "urlhaus-urls.txt"],
    ["https://evil.example.com/Path%20Two?&&x=1", "urlhaus-urls.txt"],
    ["https://login.bank-example.test./verify?acct=%31", "phishtank.csv"],
    // A query's escapes of what does not split it (`@`, `/`), and `+` for a space, as a forwarded query writes them.
    ["https://phish-form.example/login?email=a%40b.c&next=%2Faccount", "urlhaus-urls.txt"],
    ["https://evil.example.com/Path%20Two?x=%31&", "urlhaus-urls.txt"],
    // A listed host, and every name under it.
    ["https://ads.tracker.example/", "hosts.txt"],
    ["https://a.b.ads.tracker.example/any/path?q=1", "hosts.txt"],
    ["https://phish.example.co.uk./login", "hosts.txt"],
    ["http://shop.scam-shop.example/", "domains.txt"],
  ])("%s is listed by %s", async (url, list) => {
    expect(await listing(url)).toBe(list);
  });

  test.each([
    // A listed URL lists that URL, not its host, nor another path or query.
    "http://malware.example.net/",
    "http://malware.example.net/payload.exe?v=2",
    "https://evil.example.com/Path%20Two",
    // An escape that is no letter, digit or -._~ stays one: %2F is not a path's slash, %26 not a query's &.
    "http://malware.example.net/payload.exe%2F",
    "https://evil.example.com/Path%20Two?x%3D1",
    // Neither a name above a listed host, nor one that merely ends the same way.
    "https://tracker.example/",
    "https://notscam-shop.example/",
    "https://example.com/",
  ])("%s is not listed", async (url) => {
    expect(await listing(url)).toBeUndefined();
  });
});

describe("THREAT_FEEDS, kept current", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkgeo-threats-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const warnings: string[] = [];
  const log = createLogger({ service: "shortener", level: "warn", format: "json", write: (line) => void warnings.push(line) });
  const listed = (feeds: ThreatFeeds, url: string) => feeds.listing(new URL(url));

  test("a file that changes is read again; one that can no longer be read keeps its last good copy, said in the log", async () => {
    const path = join(dir, "domains.txt");
    writeFileSync(path, "first.example\n");
    const feeds = new ThreatFeeds({ paths: [path], log, checkEveryMs: 60_000 });
    await feeds.start();
    try {
      expect(listed(feeds, "https://first.example/")).toBe("domains.txt");
      writeFileSync(path, "first.example\nsecond.example\n");
      await feeds.refresh();
      expect(listed(feeds, "https://second.example/")).toBe("domains.txt");

      rmSync(path);
      await feeds.refresh();
      expect([listed(feeds, "https://first.example/"), listed(feeds, "https://second.example/")]).toEqual(["domains.txt", "domains.txt"]);
      expect(warnings.map((line) => JSON.parse(line))).toContainEqual(
        expect.objectContaining({ msg: "threat feed could not be read", list: "domains.txt", kept: "its last good copy" }),
      );
    } finally {
      feeds.stop();
    }
  });

  test("the files are read again by themselves, every checkEveryMs", async () => {
    const path = join(dir, "urls.txt");
    writeFileSync(path, "https://one.example/bad\n");
    const feeds = new ThreatFeeds({ paths: [path], log, checkEveryMs: 20 });
    await feeds.start();
    try {
      writeFileSync(path, "https://one.example/bad\nhttps://two.example/bad\n");
      const deadline = Date.now() + 5_000;
      while (listed(feeds, "https://two.example/bad") === undefined && Date.now() < deadline) await Bun.sleep(10);
      expect(listed(feeds, "https://two.example/bad")).toBe("urls.txt");
    } finally {
      feeds.stop();
    }
  });

  test("the variable names files that are there, each with a name of its own", () => {
    expect(parseThreatFeedPaths(` ${feed("hosts.txt")} ,${feed("urlhaus.csv")},`)).toEqual([feed("hosts.txt"), feed("urlhaus.csv")]);
    expect(() => parseThreatFeedPaths(join(dir, "nowhere.txt"))).toThrow(`has "${join(dir, "nowhere.txt")}", which is not a file this service can read`);
    expect(() => parseThreatFeedPaths(dir)).toThrow("which is not a file");
    writeFileSync(join(dir, "hosts.txt"), "");
    expect(() => parseThreatFeedPaths(`${feed("hosts.txt")},${join(dir, "hosts.txt")}`)).toThrow('names two files called "hosts.txt"');
  });
});
