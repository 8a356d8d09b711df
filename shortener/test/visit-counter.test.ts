import { describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import type { LinkStore } from "../src/links/link-store.ts";
import { DatabaseTimeout } from "../src/database-deadline.ts";
import type { LinkVisits } from "../src/visits/link-visits.ts";
import { plainDestination, type CountedDestination, type VisitClaim } from "../src/links/destination.ts";
import { VisitCounter, type CountedVisit } from "../src/visits/visit-counter.ts";

/**
 * A store that remembers each batch it was given and answers for codes it
 * knows. With `held`, each write waits until the test lets it finish: a
 * database round trip during which more visits arrive, with no clock.
 */
function recordingStore(known: Record<string, string>, options: { failFirst?: boolean; held?: boolean } = {}) {
  const batches: Array<Record<string, number>> = [];
  let fail = options.failFirst ?? false;
  let started = 0;
  const waiting: Array<() => void> = [];
  const store: Pick<LinkStore, "recordVisits"> = {
    async recordVisits(counts) {
      started++;
      if (options.held) await new Promise<void>((resolve) => waiting.push(resolve));
      if (fail) {
        fail = false;
        throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      }
      batches.push(Object.fromEntries([...counts].map(([code, visits]) => [code, visits.count])));
      return new Map([...counts].filter(([c]) => c in known).map(([c, visits]) => [c, claimOf(known[c]!, visits.count)]));
    },
  };
  return {
    store,
    batches,
    /** Writes begun so far. */
    started: () => started,
    /** Lets every write in flight finish. */
    release: () => {
      for (const finish of waiting.splice(0)) finish();
    },
  };
}

/** A store that keeps every link's visits it was given and knows every code: `<code>` goes to https://<code>.example/. */
function keepingStore() {
  const written: LinkVisits[] = [];
  const store: Pick<LinkStore, "recordVisits"> = {
    async recordVisits(visits) {
      written.push(...visits.values());
      return new Map([...visits].map(([code, counted]) => [code, claimOf(`https://${code}.example/`, counted.count)]));
    },
  };
  return { store, written };
}

const clock = () => new Date("2026-11-22T00:00:00Z");

/** What a store answers for a link without options: every visit let through. */
function claimOf(longUrl: string, granted: number): VisitClaim {
  return { destination: { ...plainDestination(longUrl), accessCount: granted }, granted };
}

/** Where a counted visit was sent, or null for an unknown link. */
const urlOf = (visit: CountedVisit<CountedDestination> | null) => (visit === null ? null : visit.destination.longUrl);

describe("VisitCounter", () => {
  test("merges visits that arrive together into one write, per code", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/", b: "https://b.example/" });
    const counter = new VisitCounter(store, clock);
    const results = (await Promise.all([counter.visit("a"), counter.visit("b"), counter.visit("a"), counter.visit("zzz")])).map(urlOf);
    expect(results).toEqual(["https://a.example/", "https://b.example/", "https://a.example/", null]);
    expect(batches).toEqual([{ a: 2, b: 1, zzz: 1 }]);
  });

  test("visits that arrive during a write go into the next one, and none is lost", async () => {
    const { store, batches, started, release } = recordingStore({ a: "https://a.example/" }, { held: true });
    const counter = new VisitCounter(store, clock);
    const first = counter.visit("a");
    await waitFor("the first write to be in flight", () => started() === 1);
    const more = Array.from({ length: 50 }, () => counter.visit("a"));
    release();
    await first;
    await waitFor("the second write to be in flight", () => started() === 2);
    release();
    await Promise.all(more);
    expect(batches).toEqual([{ a: 1 }, { a: 50 }]);
  });

  test("a failed write rejects its visits and the next write still happens", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/" }, { failFirst: true });
    const counter = new VisitCounter(store, clock);
    await expect(counter.visit("a")).rejects.toThrow("connection refused");
    await counter.drain();
    expect(urlOf(await counter.visit("a"))).toBe("https://a.example/");
    expect(batches).toEqual([{ a: 1 }]);
  });

  test("caps the number of codes per write", async () => {
    const known = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`c${i}`, `https://x.example/${i}`]));
    const { store, batches } = recordingStore(known);
    const counter = new VisitCounter(store, clock, { maxCodesPerBatch: 2 });
    await Promise.all(Object.keys(known).map((code) => counter.visit(code)));
    expect(batches.map((b) => Object.keys(b).length)).toEqual([2, 2, 1]);
  });

  test("drain waits for every visit taken so far", async () => {
    const { store, batches } = recordingStore({ a: "https://a.example/" });
    const counter = new VisitCounter(store, clock);
    void counter.visit("a");
    void counter.visit("a");
    await counter.drain();
    expect(batches).toEqual([{ a: 2 }]);
  });

  describe("when a link lets fewer visits through than came (a cap)", () => {
    /** A store whose link has `left` visits left, granting the first of each batch as the stores do (LinkVisits.first). */
    function cappedStore(left: number) {
      const written: LinkVisits[] = [];
      const store: Pick<LinkStore, "recordVisits"> = {
        async recordVisits(visits) {
          const [[code, asked]] = [...visits] as [[string, LinkVisits]];
          const granted = Math.min(left, asked.count);
          left -= granted;
          written.push(asked.first(granted));
          return new Map([[code, claimOf(`https://${code}.example/`, granted)]]);
        },
      };
      return { store, written };
    }

    test("exactly the granted number of visits are sent on, the others told they were not", async () => {
      const { store } = cappedStore(3);
      const counter = new VisitCounter(store, clock);
      const visits = await Promise.all(Array.from({ length: 8 }, () => counter.visit("a")));
      expect(visits.filter((visit) => visit?.through).length).toBe(3);
      expect(visits.every((visit) => visit?.destination.longUrl === "https://a.example/")).toBe(true);
    });

    test("with analytics, the visitors let through are the ones whose facts were written", async () => {
      const { store, written } = cappedStore(3);
      const describe = (visitor: { userAgent: string | null }) =>
        ({ bot: false, referrer: "direct", country: "unknown", browser: visitor.userAgent ?? "other", os: "other", device: "desktop" }) as const;
      const counter = new VisitCounter(store, clock, { describe });
      const visitor = (userAgent: string) => ({ peer: "127.0.0.1", forwardedFor: null, userAgent, referer: null });
      const agents = ["Firefox", "Chrome", "Firefox", "Safari", "Chrome", "Firefox"];
      const visits = await Promise.all(agents.map((agent) => counter.visit("a", visitor(agent))));
      const through = agents.filter((_, i) => visits[i]!.through);
      expect(through.length).toBe(3);
      const counted = Object.fromEntries(written[0]!.byDimension.browsers);
      expect(counted).toEqual(
        Object.fromEntries([...new Set(through)].map((agent) => [agent, { visits: through.filter((a) => a === agent).length, bots: 0 }])),
      );
    });
  });

  describe("when a client's connection closes", () => {
    test("a visit whose client has gone before its write leaves is refused with 499 and not counted", async () => {
      const { store, batches } = recordingStore({ a: "https://a.example/" });
      const counter = new VisitCounter(store, clock);
      const gone = new AbortController();
      const staying = counter.visit("a");
      const leaving = counter.visit("a", undefined, gone.signal).catch((error) => error);
      // In the same turn, as Bun closes a connection on which a request was pipelined.
      gone.abort();
      expect(await leaving).toMatchObject({ status: 499, code: "client_closed_request" });
      expect(urlOf(await staying)).toBe("https://a.example/");
      expect(batches).toEqual([{ a: 1 }]);
    });

    test("a visit whose client has already gone is refused at once", async () => {
      const { store, batches } = recordingStore({ a: "https://a.example/" });
      const counter = new VisitCounter(store, clock);
      expect(await counter.visit("a", undefined, AbortSignal.abort()).catch((error) => error)).toMatchObject({ status: 499 });
      await counter.drain();
      expect(batches).toEqual([]);
    });

    test("a batch of nothing but gone clients writes nothing, and later visits are still written", async () => {
      const { store, batches } = recordingStore({ a: "https://a.example/" });
      const counter = new VisitCounter(store, clock);
      const gone = new AbortController();
      const leaving = counter.visit("a", undefined, gone.signal).catch((error) => error);
      gone.abort();
      expect(await leaving).toMatchObject({ status: 499 });
      expect(urlOf(await counter.visit("a"))).toBe("https://a.example/");
      expect(batches).toEqual([{ a: 1 }]);
    });

    test("with analytics, a gone client's visit leaves the breakdowns as it leaves the count", async () => {
      const { store, written } = keepingStore();
      const counter = new VisitCounter(store, clock, {
        describe: (visitor) => ({ bot: false, referrer: "direct", country: "DE", browser: String(visitor.userAgent), os: "other", device: "desktop" }),
      });
      const visitor = (userAgent: string) => ({ peer: "127.0.0.1", forwardedFor: null, userAgent, referer: null });
      const gone = new AbortController();
      const visits = [
        counter.visit("a", visitor("Firefox")).then(urlOf),
        counter.visit("a", visitor("Firefox"), gone.signal).catch(() => "gone"),
        counter.visit("a", visitor("Safari"), gone.signal).catch(() => "gone"),
      ];
      gone.abort();
      expect(await Promise.all(visits)).toEqual(["https://a.example/", "gone", "gone"]);
      expect(written.map((visits) => ({ count: visits.count, browsers: Object.fromEntries(visits.byDimension.browsers) }))).toEqual([
        { count: 1, browsers: { Firefox: { visits: 1, bots: 0 } } },
      ]);
    });
  });

  describe("when the database hangs", () => {
    /** A store whose first write hangs until released, then reports whether it was told to give up. */
    function hangingStore() {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const seen: Array<{ counts: Record<string, number>; abortedWhenItReturned?: boolean }> = [];
      const store: Pick<LinkStore, "recordVisits"> = {
        async recordVisits(counts, _at, deadline) {
          const call: (typeof seen)[number] = { counts: Object.fromEntries([...counts].map(([code, visits]) => [code, visits.count])) };
          seen.push(call);
          if (seen.length === 1) {
            await released;
            call.abortedWhenItReturned = deadline?.aborted;
            if (deadline?.aborted) throw deadline.reason; // what the stores do: no commit past the deadline
          }
          return new Map([...counts].map(([code, visits]) => [code, claimOf(`https://${code}.example/`, visits.count)]));
        },
      };
      return { store, seen, release };
    }

    test("a write past its deadline fails its visits, the store is told so, and the next write goes out at once", async () => {
      const { store, seen, release } = hangingStore();
      const counter = new VisitCounter(store, clock, { timeoutMs: 50 });
      const hung = counter.visit("a").catch((error) => error);
      expect(await hung).toBeInstanceOf(DatabaseTimeout);
      // The hung write is still out; the counter is not stuck behind it.
      expect(urlOf(await counter.visit("b"))).toBe("https://b.example/");
      release();
      await waitFor("the hung write to return", () => seen[0]!.abortedWhenItReturned !== undefined);
      expect(seen).toEqual([{ counts: { a: 1 }, abortedWhenItReturned: true }, { counts: { b: 1 } }]);
    });

    test("visits that waited past the deadline before their write left fail without being sent", async () => {
      const { store, seen, release } = hangingStore();
      let now = 0;
      const counter = new VisitCounter(store, clock, { timeoutMs: 50, now: () => now });
      const first = counter.visit("a").catch((error) => error);
      await waitFor("the first write to be out", () => seen.length === 1);
      const queued = counter.visit("queued").catch((error) => error);
      // By the time the hung write fails, the queued visit has waited longer than the deadline.
      now += 50;
      expect(await first).toBeInstanceOf(DatabaseTimeout);
      expect(await queued).toBeInstanceOf(DatabaseTimeout);
      release();
      expect(seen.map((call) => call.counts)).toEqual([{ a: 1 }]);
    });

    test("a flush in which every visit had waited past the deadline does not stop later visits", async () => {
      const { store, batches } = recordingStore({ a: "https://a.example/" });
      let now = 0;
      const counter = new VisitCounter(store, clock, { timeoutMs: 50, now: () => now });
      const late = counter.visit("a").catch((error) => error);
      // The event loop was held up past the deadline before the flush ran: nothing is written.
      now += 50;
      expect(await late).toBeInstanceOf(DatabaseTimeout);
      expect(urlOf(await counter.visit("a"))).toBe("https://a.example/");
      expect(batches).toEqual([{ a: 1 }]);
    });

    test("refuses more visits than it may hold at once with a 503, instead of piling them up", async () => {
      const { store, release } = hangingStore();
      const counter = new VisitCounter(store, clock, { timeoutMs: 10_000, maxWaiting: 3 });
      const held = [counter.visit("a"), counter.visit("a"), counter.visit("b")];
      const refused = await counter.visit("c").catch((error) => error);
      expect(refused).toMatchObject({ status: 503, code: "service_unavailable" });
      release();
      await Promise.all(held);
      // Room again once those are written.
      expect(urlOf(await counter.visit("c"))).toBe("https://c.example/");
    });
  });

  describe("with analytics", () => {
    const firefox = { peer: "127.0.0.1", forwardedFor: "141.20.5.188", userAgent: "Firefox", referer: null };
    const googlebot = { peer: "127.0.0.1", forwardedFor: "128.32.1.1", userAgent: "Googlebot", referer: null };

    test("classifies each distinct visitor of a batch once, and writes every visit with its facts", async () => {
      const described: string[] = [];
      const { store, written } = keepingStore();
      const counter = new VisitCounter(store, clock, {
        describe: (visitor) => {
          described.push(String(visitor.userAgent));
          const bot = visitor.userAgent === "Googlebot";
          return { bot, referrer: "direct", country: bot ? "US" : "DE", browser: String(visitor.userAgent), os: "other", device: bot ? "bot" : "desktop" };
        },
      });
      // 40 clicks of one browser and 10 of one crawler, all in one batch.
      await Promise.all([
        ...Array.from({ length: 40 }, () => counter.visit("a", { ...firefox })),
        ...Array.from({ length: 10 }, () => counter.visit("a", { ...googlebot })),
      ]);
      expect(described.sort()).toEqual(["Firefox", "Googlebot"]);
      expect(written).toHaveLength(1);
      expect({
        count: written[0]!.count,
        humans: written[0]!.humans,
        bots: written[0]!.bots,
        countries: Object.fromEntries(written[0]!.byDimension.countries),
      }).toEqual({
        count: 50,
        humans: 40,
        bots: 10,
        countries: { DE: { visits: 40, bots: 0 }, US: { visits: 10, bots: 10 } },
      });
    });

    test("answers each visit with its own visitor's facts, the ones written: a link's rules need not classify again", async () => {
      const { store } = keepingStore();
      const counter = new VisitCounter(store, clock, {
        describe: (visitor) => ({ bot: false, referrer: "direct", country: "DE", browser: String(visitor.userAgent), os: "other", device: "desktop" }),
      });
      const visits = await Promise.all([counter.visit("a", { ...firefox }), counter.visit("a", { ...googlebot }), counter.visit("a", { ...firefox })]);
      expect(visits.map((visit) => visit?.facts?.browser)).toEqual(["Firefox", "Googlebot", "Firefox"]);
      // Without analytics there are none: the rules classify the visitor themselves.
      const counting = new VisitCounter(keepingStore().store, clock);
      expect((await counting.visit("a", { ...firefox }))?.facts).toBeUndefined();
    });

    test("a visit that comes without its visitor is still in the breakdowns (as an unknown one), so they never fall behind the count", async () => {
      const written: LinkVisits[] = [];
      const store: Pick<LinkStore, "recordVisits"> = {
        async recordVisits(visits) {
          written.push(...visits.values());
          return new Map();
        },
      };
      const counter = new VisitCounter(store, clock, {
        describe: (visitor) => ({ bot: visitor.userAgent === null, referrer: "direct", country: "unknown", browser: "other", os: "other", device: "other" }),
      });
      await Promise.all([counter.visit("a", { ...firefox }), counter.visit("a")]);
      expect({ count: written[0]!.count, humans: written[0]!.humans, bots: written[0]!.bots }).toEqual({ count: 2, humans: 1, bots: 1 });
    });
  });
});
