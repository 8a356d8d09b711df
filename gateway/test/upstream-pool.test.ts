import { describe, expect, test } from "bun:test";
import { createLogger, silentLogger } from "@linkgeo/shared";
import { waitFor } from "@linkgeo/testing";
import { systemResolver, type Resolver } from "../src/upstreams/resolve-replicas.ts";
import { UpstreamPool, type UpstreamPoolOptions } from "../src/upstreams/upstream-pool.ts";

const start = Date.parse("2026-11-22T08:00:00.000Z");

/** A DNS server the test edits: each name answers its list, or fails with an Error. */
function fakeDns(records: Record<string, string[] | Error>) {
  const lookups: string[] = [];
  const resolve: Resolver = async (hostname) => {
    lookups.push(hostname);
    const answer = records[hostname];
    if (answer === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { records, lookups, resolve };
}

/** A pool with a clock the test moves and every log line kept. */
function setUp(options: Partial<UpstreamPoolOptions> & Pick<UpstreamPoolOptions, "urls">) {
  const time = { now: start };
  const lines: Record<string, unknown>[] = [];
  const clock = () => new Date(time.now);
  const pool = new UpstreamPool({
    name: "shortener",
    refreshMs: 60_000,
    ejectMs: 5_000,
    clock,
    log: createLogger({ service: "gateway", level: "debug", format: "json", clock, write: (line) => lines.push(JSON.parse(line)) }),
    ...options,
  });
  return { pool, time, lines };
}

const picks = (pool: UpstreamPool, count: number) => Array.from({ length: count }, () => pool.next());

describe("an upstream pool", () => {
  test("round-robins over the configured URLs", () => {
    const { pool } = setUp({ urls: ["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"] });
    expect(picks(pool, 5)).toEqual([
      "http://127.0.0.1:3001",
      "http://127.0.0.2:3001",
      "http://127.0.0.3:3001",
      "http://127.0.0.1:3001",
      "http://127.0.0.2:3001",
    ]);
  });

  test("uses IP literals, localhost and https names as given, without resolving them", async () => {
    const dns = fakeDns({});
    const { pool } = setUp({
      urls: ["http://10.0.0.7:3001", "http://[fd00::7]:3001", "http://localhost:3001", "https://shortener.example.com"],
      resolve: dns.resolve,
    });
    await pool.start();
    pool.stop();
    expect(pool.replicas()).toEqual(["http://10.0.0.7:3001", "http://[fd00::7]:3001", "http://localhost:3001", "https://shortener.example.com"]);
    expect(dns.lookups).toEqual([]);
  });

  test("counts a name that resolves to 3 addresses as 3 replicas", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1", "127.0.0.2", "127.0.0.3"] });
    const { pool } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await pool.start();
    pool.stop();
    expect(pool.replicas()).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"]);
    expect(picks(pool, 4)).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001", "http://127.0.0.1:3001"]);
  });

  test("brackets IPv6 addresses and uses port 80 when the URL names none", async () => {
    const dns = fakeDns({ shortener: ["fd00::2", "10.0.0.2"] });
    const { pool } = setUp({ urls: ["http://shortener"], resolve: dns.resolve });
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://10.0.0.2:80", "http://[fd00::2]:80"]);
  });

  test("keeps the configured order across URLs and lists a replica once", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.2", "127.0.0.3"] });
    const { pool } = setUp({ urls: ["http://127.0.0.3:3001", "http://shortener:3001", "http://127.0.0.9:3001"], resolve: dns.resolve });
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.3:3001", "http://127.0.0.2:3001", "http://127.0.0.9:3001"]);
  });

  test("picks up a scale-up and a scale-down when names are resolved again", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1"] });
    const { pool, lines } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.1:3001"]);

    dns.records.shortener = ["127.0.0.3", "127.0.0.1", "127.0.0.2"];
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"]);

    dns.records.shortener = ["127.0.0.2"];
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.2:3001"]);
    expect(picks(pool, 2)).toEqual(["http://127.0.0.2:3001", "http://127.0.0.2:3001"]);
    expect(lines.filter((line) => line.msg === "upstream replicas changed").map((line) => line.replicas)).toEqual([
      ["http://127.0.0.1:3001"],
      ["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"],
      ["http://127.0.0.2:3001"],
    ]);
  });

  test("does not call a reordered DNS answer a change", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1", "127.0.0.2"] });
    const { pool, lines } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await pool.refresh();
    dns.records.shortener = ["127.0.0.2", "127.0.0.1"];
    await pool.refresh();
    expect(lines.filter((line) => line.msg === "upstream replicas changed")).toHaveLength(1);
  });

  test("keeps the last good replicas when a refresh fails, and warns at most once per interval", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1", "127.0.0.2"] });
    const { pool, time, lines } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await pool.refresh();

    dns.records.shortener = new Error("getaddrinfo EAI_AGAIN shortener");
    await pool.refresh();
    time.now += 1_000;
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001"]);

    dns.records.shortener = [];
    await pool.refresh();
    expect(pool.replicas()).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001"]);

    expect(lines.filter((line) => line.level === "warn")).toEqual([
      {
        time: "2026-11-22T08:00:00.000Z",
        level: "warn",
        service: "gateway",
        msg: "upstream name did not resolve, keeping its last replicas",
        upstream: "shortener",
        host: "shortener",
        error: "Error: getaddrinfo EAI_AGAIN shortener",
        kept: 2,
      },
    ]);
  });

  test("has no replica for a name that never resolved, until it does", async () => {
    const dns = fakeDns({});
    const { pool } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await pool.refresh();
    expect(pool.replicas()).toEqual([]);
    expect(pool.next()).toBeUndefined();

    dns.records.shortener = ["127.0.0.1"];
    await pool.refresh();
    expect(pool.next()).toBe("http://127.0.0.1:3001");
  });

  test("shares one lookup between refreshes that overlap", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1"] });
    const { pool } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve });
    await Promise.all([pool.refresh(), pool.refresh(), pool.refresh()]);
    expect(dns.lookups).toEqual(["shortener"]);
  });

  test("resolves names again every refresh interval once started", async () => {
    const dns = fakeDns({ shortener: ["127.0.0.1"] });
    const { pool } = setUp({ urls: ["http://shortener:3001"], resolve: dns.resolve, refreshMs: 10 });
    await pool.start();
    try {
      expect(pool.replicas()).toEqual(["http://127.0.0.1:3001"]);
      dns.records.shortener = ["127.0.0.1", "127.0.0.2"];
      await waitFor("the scale-up to be seen", () => pool.replicas().length === 2);
    } finally {
      pool.stop();
    }
  });

  describe("ejection", () => {
    const urls = ["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"];

    test("leaves an ejected replica out until the ejection time has passed", () => {
      const { pool, time, lines } = setUp({ urls });
      pool.eject("http://127.0.0.2:3001", "ECONNREFUSED");
      expect(picks(pool, 4)).toEqual(["http://127.0.0.1:3001", "http://127.0.0.3:3001", "http://127.0.0.1:3001", "http://127.0.0.3:3001"]);

      time.now += 4_999;
      expect(picks(pool, 2)).toEqual(["http://127.0.0.1:3001", "http://127.0.0.3:3001"]);

      time.now += 1;
      expect(picks(pool, 3)).toEqual(["http://127.0.0.1:3001", "http://127.0.0.2:3001", "http://127.0.0.3:3001"]);
      expect(lines.filter((line) => line.level === "warn")).toEqual([
        {
          time: "2026-11-22T08:00:00.000Z",
          level: "warn",
          service: "gateway",
          msg: "upstream replica ejected",
          upstream: "shortener",
          replica: "http://127.0.0.2:3001",
          reason: "ECONNREFUSED",
          for_ms: 5_000,
        },
      ]);
    });

    test("logs an ejection once while the replica stays ejected, and extends it", () => {
      const { pool, time, lines } = setUp({ urls });
      pool.eject(urls[0]!, "ECONNREFUSED");
      time.now += 3_000;
      pool.eject(urls[0]!, "ECONNREFUSED");
      time.now += 3_000;
      expect(pool.next()).toBe(urls[1]);
      time.now += 2_000;
      pool.eject(urls[0]!, "ECONNREFUSED");
      expect(lines.filter((line) => line.msg === "upstream replica ejected").map((line) => line.time)).toEqual([
        "2026-11-22T08:00:00.000Z",
        "2026-11-22T08:00:08.000Z",
      ]);
    });

    test("uses ejected replicas anyway when every one is ejected", () => {
      const { pool } = setUp({ urls, log: silentLogger });
      for (const replica of urls) pool.eject(replica);
      expect(picks(pool, 4)).toEqual([urls[0], urls[1], urls[2], urls[0]]);
    });

    test("skips replicas already tried, and has none left when all were", () => {
      const { pool } = setUp({ urls, log: silentLogger });
      expect(pool.next(new Set([urls[0]!, urls[1]!]))).toBe(urls[2]);
      pool.eject(urls[2]!);
      expect(pool.next(new Set([urls[0]!, urls[1]!]))).toBe(urls[2]);
      expect(pool.next(new Set(urls))).toBeUndefined();
    });
  });
});

describe("the system resolver", () => {
  test("answers every address of a name from the host's resolver", async () => {
    const addresses = await systemResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => address === "::1" || address.startsWith("127."))).toBe(true);
  });

  test("rejects a name that does not resolve", async () => {
    await expect(systemResolver("no-such-host.invalid")).rejects.toThrow();
  });
});
