import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { linkState, linkStates, plainDestination, type LinkState } from "../src/links/destination.ts";
import type { Link, NewLink } from "../src/links/link.ts";
import { noOptions } from "../src/links/link-options.ts";
import { insertManyRows } from "../src/storage/insert-many.ts";
import { defaultCountLimits, estimatedCount } from "../src/storage/listing-counts.ts";
import { linkOrders, type LinkOrder } from "../src/links/link-order.ts";
import type { Database } from "../src/storage/open-database.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-11-22T07:09:09.291Z");
const later = new Date("2026-11-22T08:00:00.000Z");

function newLink(code: string, overrides: Partial<NewLink> = {}): NewLink {
  return { code, longUrl: `https://example.com/${code}`, manageTokenHash: `hash-${code}`, createdAt: t0, ...overrides };
}

describe.each(storeEngines)("link store on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let seq = 0;
  // Each test works on its own codes, so tests do not depend on one another.
  const code = (name: string) => `${name}${++seq}`;

  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("inserts a link with a zero count, equal timestamps and no options", async () => {
    const c = code("ins");
    expect(await db.links.insert(newLink(c))).toEqual({
      ...noOptions,
      workspaceId: null,
      hold: null,
      holdReason: null,
      createdBy: null,
      code: c,
      longUrl: `https://example.com/${c}`,
      manageTokenHash: `hash-${c}`,
      accessCount: 0,
      lastAccessedAt: null,
      createdAt: t0,
      updatedAt: t0,
    });
  });

  test("keeps every option as it was given, and an update sets or clears each", async () => {
    const c = code("opt");
    const options = {
      expiresAt: new Date("2031-01-02T03:04:05.678Z"),
      maxVisits: 2_147_483_647,
      expiredUrl: "https://example.com/over",
      redirectStatus: 308 as const,
      passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA",
      tags: ["launch", "q4_2026"],
      title: "Größe «quoted» ✓",
      forwardQuery: true,
      rules: [
        { when: { device: "ios" as const, country: "DE" }, url: "https://example.com/de-ios" },
        { when: { language: "fr" }, url: "https://example.com/fr" },
      ],
    };
    expect(await db.links.insert({ ...newLink(c), ...options })).toMatchObject(options);
    expect(await db.links.find(c)).toMatchObject(options);
    const cleared = await db.links.update(c, { ...noOptions, tags: ["only"] }, later);
    expect(cleared).toMatchObject({ ...noOptions, tags: ["only"], longUrl: `https://example.com/${c}`, updatedAt: later });
    expect(await db.links.find(c)).toEqual(cleared);
  });

  test("reads a rule back with its keys in one order, however they were written or stored", async () => {
    const c = code("ord");
    const rules = [{ url: "https://example.com/fr-ios", when: { language: "fr", device: "ios" as const } }];
    const canonical = '[{"when":{"device":"ios","language":"fr"},"url":"https://example.com/fr-ios"}]';
    expect(JSON.stringify((await db.links.insert({ ...newLink(c), rules }))!.rules)).toBe(canonical);
    expect(JSON.stringify((await db.links.find(c))!.rules)).toBe(canonical);
  });

  test("refuses a taken code and keeps the first link", async () => {
    const c = code("dup");
    await db.links.insert(newLink(c));
    expect(await db.links.insert(newLink(c, { longUrl: "https://other.example/" }))).toBeNull();
    expect((await db.links.find(c))?.longUrl).toBe(`https://example.com/${c}`);
  });

  test("codes are case-sensitive", async () => {
    const c = code("case");
    await db.links.insert(newLink(c));
    expect(await db.links.insert(newLink(c.toUpperCase()))).not.toBeNull();
    expect(await db.links.find(c.toUpperCase().toLowerCase().replace("case", "CASE"))).not.toBeNull();
  });

  test("finds a link by its manage token's hash, which no two links share", async () => {
    const [c, other] = [code("tok"), code("tok")];
    await db.links.insert(newLink(c));
    expect(await db.links.findByManageTokenHash(`hash-${c}`)).toMatchObject({ code: c, manageTokenHash: `hash-${c}` });
    expect(await db.links.findByManageTokenHash("hash-of-no-link")).toBeNull();
    await expect(db.links.insert(newLink(other, { manageTokenHash: `hash-${c}` }))).rejects.toThrow();
    expect(await db.links.find(other)).toBeNull();
  });

  describe("inserting many", () => {
    test("inserts every free code, the first of a code twice in the batch, and answers the stored links", async () => {
      const [taken, a, b, c] = [code("many"), code("many"), code("many"), code("many")];
      await db.links.insert(newLink(taken));
      const options = { tags: ["bulk"], title: "Größe", maxVisits: 3, rules: [{ when: { language: "fr" }, url: "https://example.com/fr" }] };
      const inserted = await db.links.insertMany([
        newLink(b, options),
        newLink(taken, { longUrl: "https://other.example/taken" }),
        newLink(a),
        newLink(b, { longUrl: "https://other.example/second-b", manageTokenHash: `hash-${b}-again` }),
        newLink(c),
      ]);
      expect(inserted.map((link) => link.code).sort()).toEqual([a, b, c].sort());
      for (const link of inserted) expect(await db.links.find(link.code)).toEqual(link);
      expect(inserted.find((link) => link.code === b)).toEqual({
        ...noOptions,
        workspaceId: null,
        hold: null,
        holdReason: null,
        createdBy: null,
        ...options,
        code: b,
        longUrl: `https://example.com/${b}`,
        manageTokenHash: `hash-${b}`,
        accessCount: 0,
        lastAccessedAt: null,
        createdAt: t0,
        updatedAt: t0,
      });
      expect((await db.links.find(taken))?.longUrl).toBe(`https://example.com/${taken}`);
    });

    test("inserts more links than one statement holds, and nothing for an empty batch", async () => {
      const batch = Array.from({ length: insertManyRows + 5 }, () => newLink(code("big")));
      expect(await db.links.insertMany(batch)).toHaveLength(batch.length);
      expect(await db.links.find(batch.at(-1)!.code)).not.toBeNull();
      expect(await db.links.insertMany([])).toEqual([]);
    });

    test("concurrent batches over the same codes, in different orders, insert each code once and never deadlock", async () => {
      const codes = Array.from({ length: 200 }, () => code("race"));
      const batches = Array.from({ length: 4 }, (_, writer) => {
        const order = writer % 2 === 0 ? codes : [...codes].reverse();
        return order.map((c) => newLink(c, { longUrl: `https://example.com/${c}/${writer}`, manageTokenHash: `hash-${c}-${writer}` }));
      });
      const results = await Promise.all(batches.map((batch) => db.links.insertMany(batch)));
      const winners = results.flat().map((link) => link.code);
      expect(winners.sort()).toEqual([...codes].sort());
    });
  });

  test("finds nothing for an unknown code", async () => {
    expect(await db.links.find("nope-never")).toBeNull();
  });

  test("replaces the long URL and moves updatedAt only", async () => {
    const c = code("upd");
    await db.links.insert(newLink(c));
    const updated = await db.links.update(c, { longUrl: "https://example.org/new" }, later);
    expect(updated).toMatchObject({ code: c, longUrl: "https://example.org/new", createdAt: t0, updatedAt: later });
    expect(await db.links.update("nope-never", { longUrl: "https://x.example/" }, later)).toBeNull();
  });

  test("deletes a link once", async () => {
    const c = code("del");
    await db.links.insert(newLink(c));
    expect(await db.links.delete(c)).toBe(true);
    expect(await db.links.delete(c)).toBe(false);
    expect(await db.links.find(c)).toBeNull();
  });

  test("records visits and answers the current destination of existing links only", async () => {
    const [a, b] = [code("vis"), code("vis")];
    await db.links.insert(newLink(a));
    await db.links.insert(newLink(b));
    const urls = await db.links.recordVisits(
      new Map([
        [a, LinkVisits.counting(3)],
        [b, LinkVisits.counting(1)],
        ["missing-code", LinkVisits.counting(5)],
      ]),
      later,
    );
    expect([...urls.keys()].sort()).toEqual([a, b].sort());
    expect(urls.get(a)).toEqual({ granted: 3, destination: { ...plainDestination(`https://example.com/${a}`), accessCount: 3 } });
    expect(urls.get(b)).toEqual({ granted: 1, destination: { ...plainDestination(`https://example.com/${b}`), accessCount: 1 } });
    expect(await db.links.find(a)).toMatchObject({ accessCount: 3, lastAccessedAt: later });
    expect(await db.links.find(b)).toMatchObject({ accessCount: 1 });
  });

  test("a capped link lets through no more visits than its cap leaves, the first ones, and counts only those", async () => {
    const [capped, plain] = [code("cap"), code("cap")];
    await db.links.insert({ ...newLink(capped), maxVisits: 5 });
    await db.links.insert(newLink(plain));
    const first = await db.links.recordVisits(
      new Map([
        [capped, LinkVisits.counting(3)],
        [plain, LinkVisits.counting(4)],
      ]),
      later,
    );
    expect(first.get(capped)).toMatchObject({ granted: 3, destination: { maxVisits: 5, accessCount: 3 } });
    expect(first.get(plain)).toMatchObject({ granted: 4 });
    const second = await db.links.recordVisits(new Map([[capped, LinkVisits.counting(4)]]), later);
    expect(second.get(capped)).toMatchObject({ granted: 2, destination: { accessCount: 5 } });
    const third = await db.links.recordVisits(new Map([[capped, LinkVisits.counting(1)]]), later);
    expect(third.get(capped)).toMatchObject({ granted: 0, destination: { accessCount: 5 } });
    expect(await db.links.find(capped)).toMatchObject({ accessCount: 5 });
  });

  test("concurrent batches from many writers never let a capped link past its cap", async () => {
    const capped = code("race");
    await db.links.insert({ ...newLink(capped), maxVisits: 50 });
    const claims = await Promise.all(Array.from({ length: 40 }, () => db.links.recordVisits(new Map([[capped, LinkVisits.counting(3)]]), later)));
    expect(claims.reduce((sum, claim) => sum + claim.get(capped)!.granted, 0)).toBe(50);
    expect(await db.links.find(capped)).toMatchObject({ accessCount: 50 });
  });

  test("an expired link lets nothing through; a protected one only visits that gave its password", async () => {
    const [expired, protectedLink] = [code("exp"), code("pw")];
    await db.links.insert({ ...newLink(expired), expiresAt: later, expiredUrl: "https://example.com/over" });
    await db.links.insert({ ...newLink(protectedLink), passwordHash: "$argon2id$hash" });
    // Well before: the store judges expiry at the batch's time plus the time the write has taken.
    const before = new Date(later.getTime() - 60_000);
    expect((await db.links.recordVisits(new Map([[expired, LinkVisits.counting(2)]]), before)).get(expired)).toMatchObject({ granted: 2 });
    const after = await db.links.recordVisits(new Map([[expired, LinkVisits.counting(2)]]), later);
    expect(after.get(expired)).toMatchObject({ granted: 0, destination: { expiresAt: later, expiredUrl: "https://example.com/over" } });
    const locked = await db.links.recordVisits(new Map([[protectedLink, LinkVisits.counting(1)]]), later);
    expect(locked.get(protectedLink)).toMatchObject({ granted: 0, destination: { passwordProtected: true, longUrl: `https://example.com/${protectedLink}` } });
    const unlocked = await db.links.recordVisits(new Map([[protectedLink, LinkVisits.counting(1)]]), later, undefined, { unlocked: true });
    expect(unlocked.get(protectedLink)).toMatchObject({ granted: 1, destination: { accessCount: 1 } });
    expect(await db.links.find(expired)).toMatchObject({ accessCount: 2 });
  });

  test("links inserted many at once, by a bulk create or an import, are found by search and by tag at once", async () => {
    const marker = code("many");
    const made = Array.from({ length: 30 }, (_, i) => ({
      ...newLink(`${marker}-${i}`, { longUrl: `https://many.example/${marker}/${i}` }),
      tags: [`tag-${marker}`.toLowerCase()],
    }));
    await db.links.insertMany(made.slice(0, 15));
    await db.links.insertImported(made.slice(15).map((link) => ({ ...link, accessCount: 3, lastAccessedAt: null, updatedAt: t0 })));
    expect((await db.links.list({ offset: 0, limit: 100, search: `many.example/${marker}/` })).links).toHaveLength(30);
    expect((await db.links.list({ offset: 0, limit: 100, tag: `tag-${marker}`.toLowerCase() })).links).toHaveLength(30);
  });

  test("concurrent visit batches over the same links in different orders lose no increment", async () => {
    const codes = Array.from({ length: 6 }, () => code("hot"));
    for (const c of codes) await db.links.insert(newLink(c));
    // 40 batches at once, each touching every link, half in reverse order: a
    // read-then-write count would lose increments, a lock-order bug deadlock.
    const batches = Array.from({ length: 40 }, (_, i) => {
      const order = i % 2 === 0 ? codes : [...codes].reverse();
      return db.links.recordVisits(new Map(order.map((c, j) => [c, LinkVisits.counting(j + 1)])), later);
    });
    await Promise.all(batches);
    const totals = await Promise.all(codes.map(async (c) => (await db.links.find(c))!.accessCount));
    // Each link gets 20 batches at weight j+1 and 20 at weight 6-j.
    expect(totals).toEqual(codes.map(() => 20 * 7));
  });

  describe("listing", () => {
    const prefix = `lst${Date.now().toString(36)}`;
    beforeEach(async () => {
      if (await db.links.find(`${prefix}0`)) return;
      for (let i = 0; i < 5; i++) {
        await db.links.insert(newLink(`${prefix}${i}`, { createdAt: new Date(t0.getTime() + i * 1000), longUrl: `https://list.example/${i}%_${prefix}` }));
      }
    });

    test("pages newest first with the total count", async () => {
      const first = await db.links.list({ offset: 0, limit: 2, search: prefix });
      expect(first.count).toBe(5);
      expect(first.links.map((l) => l.code)).toEqual([`${prefix}4`, `${prefix}3`]);
      const last = await db.links.list({ offset: 4, limit: 2, search: prefix });
      expect(last.links.map((l) => l.code)).toEqual([`${prefix}0`]);
    });

    test("searches code and long URL without regard to case", async () => {
      const page = await db.links.list({ offset: 0, limit: 10, search: `LIST.EXAMPLE/3%_${prefix.toUpperCase()}` });
      expect(page.links.map((l) => l.code)).toEqual([`${prefix}3`]);
    });

    test("treats % and _ in a search as plain characters", async () => {
      expect((await db.links.list({ offset: 0, limit: 10, search: `%_${prefix}` })).count).toBe(5);
      expect((await db.links.list({ offset: 0, limit: 10, search: "%%" })).count).toBe(0);
    });

    test("says exactly whether another page follows, and counts exactly", async () => {
      expect(await db.links.list({ offset: 0, limit: 2, search: prefix })).toMatchObject({ count: 5, countIsEstimate: false, hasMore: true });
      expect(await db.links.list({ offset: 2, limit: 3, search: prefix })).toMatchObject({ count: 5, hasMore: false });
      expect(await db.links.list({ offset: 4, limit: 2, search: prefix })).toMatchObject({ count: 5, hasMore: false });
    });

    test("searches of one and two characters find substrings too (no index serves them)", async () => {
      const short = code("q");
      await db.links.insert(newLink(short, { longUrl: "https://short.example/\u00e9Zq" }));
      for (const search of ["zQ", "Zq", "q"]) {
        const found = (await db.links.list({ offset: 0, limit: 100_000, search })).links.map((l) => l.code);
        expect(found).toContain(short);
      }
    });

    test("a changed or deleted link is found by its new URL only, or not at all", async () => {
      const [changed, deleted] = [code("chg"), code("del")];
      await db.links.insert(newLink(changed, { longUrl: `https://before.example/${changed}` }));
      await db.links.insert(newLink(deleted, { longUrl: `https://gone.example/${deleted}` }));
      await db.links.update(changed, { longUrl: `https://after.example/${changed}` }, later);
      await db.links.delete(deleted);
      const codesFor = async (search: string) => (await db.links.list({ offset: 0, limit: 10, search })).links.map((l) => l.code);
      expect(await codesFor(`before.example/${changed}`)).toEqual([]);
      expect(await codesFor(`AFTER.example/${changed}`)).toEqual([changed]);
      expect(await codesFor(`gone.example/${deleted}`)).toEqual([]);
      // A visit changes the row but not what a search finds.
      await db.links.recordVisits(new Map([[changed, LinkVisits.counting(2)]]), later);
      expect(await codesFor(`after.example/${changed}`)).toEqual([changed]);
    });
  });

  describe("searches with the search index's own syntax in them", () => {
    // FTS5 query syntax (quotes, *, NEAR, column filters, ^, -, parentheses) and ILIKE's are plain text to a search.
    const odd = code("odd");
    const oddUrl = `https://odd.example/${odd}?q="quoted"&a=*star*&n=NEAR(a b)&c=col:on&x=^caret-(minus)`;
    beforeAll(async () => {
      await db.links.insert(newLink(odd, { longUrl: oddUrl }));
    });

    test.each(['"quoted"', "*star*", "NEAR(a b)", "col:on", "^caret-(minus)", '"', '"q', oddUrl.toUpperCase()])(
      "%p finds the link that has it",
      async (search) => {
        expect((await db.links.list({ offset: 0, limit: 100_000, search })).links.map((l) => l.code)).toContain(odd);
      },
    );

    test.each(['"""', "AND OR NOT", "quoted NEAR star", "col:", `${"x".repeat(2_000)}`, "\\", "%_%"])("%p finds nothing and fails nothing", async (search) => {
      const page = await db.links.list({ offset: 0, limit: 10, search: `${odd}${search}` });
      expect(page).toMatchObject({ links: [], count: 0, countIsEstimate: false, hasMore: false });
    });
  });

  describe("counting past the exact limit", () => {
    // A store of its own whose limits are crossed with a hundred links, not ten thousand: the rule is what is tested.
    const limits = { exact: 50, sample: 25 };
    const total = limits.exact + 50;
    const marker = `many${Date.now().toString(36)}`;
    let small: Database;
    let cleanupSmall: () => Promise<void>;
    beforeAll(async () => {
      ({ db: small, cleanup: cleanupSmall } = await open({ countLimits: limits }));
      const links = Array.from({ length: total }, (_, i) => ({
        ...newLink(`${marker}${i}`, { longUrl: `https://many.example/${marker}/${i}`, createdAt: later }),
        tags: i % 10 === 0 ? [marker, `${marker}-k`] : [marker],
      }));
      expect(await small.links.insertMany(links)).toHaveLength(total);
    });
    afterAll(async () => {
      await small.close();
      await cleanupSmall();
    });

    test(`up to the limit (${limits.exact} here) matches the count is exact; past it, an estimate flagged as one`, async () => {
      const few = await small.links.list({ offset: 0, limit: 5, search: `${marker}1` });
      expect(few).toMatchObject({ count: 11, countIsEstimate: false }); // ${marker}1 and ${marker}10 to ${marker}19
      const many = await small.links.list({ offset: 0, limit: 5, search: marker });
      expect(many.countIsEstimate).toBe(true);
      expect(many.count).toBeGreaterThan(limits.exact);
      expect(many.links).toHaveLength(5);
      expect(many.hasMore).toBe(true);
      // Every link of the table matches: the estimate is about the table's size.
      const everything = await small.links.list({ offset: 0, limit: 5 });
      expect(everything.count).toBeGreaterThanOrEqual(total);
    });

    test("a tag or a state alone: exact up to the limit, an estimate flagged as one past it", async () => {
      expect(await small.links.list({ offset: 0, limit: 5, tag: `${marker}-k` })).toMatchObject({ count: 10, countIsEstimate: false });
      const many = await small.links.list({ offset: 0, limit: 5, tag: marker });
      expect(many).toMatchObject({ countIsEstimate: true, hasMore: true });
      expect(many.count).toBeGreaterThan(limits.exact);
      const active = await small.links.list({ offset: 0, limit: 5, tag: marker, state: { is: "active", at: later } });
      expect(active).toMatchObject({ countIsEstimate: true, hasMore: true });
      expect(await small.links.list({ offset: 0, limit: 5, tag: marker, state: { is: "expired", at: later } })).toMatchObject({
        count: 0,
        countIsEstimate: false,
        links: [],
      });
    });

    test("the default store counts the same hundred links exactly: its limit is ten thousand", async () => {
      const same = Array.from({ length: total }, (_, i) => newLink(`${marker}d${i}`, { longUrl: `https://many.example/${marker}/d${i}`, createdAt: later }));
      expect(await db.links.insertMany(same)).toHaveLength(total);
      expect(await db.links.list({ offset: 0, limit: 5, search: `${marker}d` })).toMatchObject({ count: total, countIsEstimate: false });
      expect(defaultCountLimits).toEqual({ exact: 10_000, sample: 5_000 });
    });

    test("the estimate: the table's size times the share of matches in the sample, never below the exact limit", () => {
      expect(estimatedCount(defaultCountLimits, 1_000_000, 2_500, 10_000)).toBe(250_000);
      expect(estimatedCount(defaultCountLimits, 12_000, 10, 10_000)).toBe(defaultCountLimits.exact + 1);
      expect(estimatedCount(defaultCountLimits, 50_000, 0, 0)).toBe(defaultCountLimits.exact + 1);
      expect(estimatedCount(limits, 100, 0, 25)).toBe(limits.exact + 1);
    });
  });

  describe("listing filters", () => {
    // Links a second apart (0 the oldest), in every state at `later`, with and without each tag;
    // some visited, so that each order differs from the others. Tags and the prefix are this block's own.
    const prefix = `flt${Date.now().toString(36)}`;
    const [red, blue] = [`${prefix}-red`, `${prefix}-blue`];
    const minute = 60_000;
    const fixture: Array<{ tags: string[]; expiresAt?: Date; maxVisits?: number; visits?: number }> = [
      { tags: [red] },
      { tags: [red, blue], expiresAt: new Date(later.getTime() - minute) },
      { tags: [blue], maxVisits: 2, visits: 2 },
      { tags: [red], maxVisits: 5, visits: 1 },
      { tags: [], expiresAt: new Date(later.getTime() + minute), visits: 3 },
      { tags: [red], expiresAt: later, maxVisits: 1, visits: 1 },
      { tags: [red, blue], maxVisits: 1, visits: 1 },
      { tags: [`${red}der`], visits: 2 },
      { tags: [red], maxVisits: 3, visits: 4 },
    ];
    const codeAt = (i: number) => `${prefix}${i}`;
    const visitedBefore = new Date(later.getTime() - 2 * minute);
    beforeAll(async () => {
      for (const [i, { tags, expiresAt }] of fixture.entries()) {
        await db.links.insert({ ...newLink(codeAt(i), { createdAt: new Date(t0.getTime() + i * 1000) }), tags, expiresAt: expiresAt ?? null, maxVisits: null });
      }
      // Visited before any cap is set (a cap lowered under the count later is used up too), then capped.
      for (const [i, { visits }] of fixture.entries()) {
        if (visits) await db.links.recordVisits(new Map([[codeAt(i), LinkVisits.counting(visits)]]), new Date(visitedBefore.getTime() + i * 1000));
      }
      for (const [i, { maxVisits }] of fixture.entries()) if (maxVisits) await db.links.update(codeAt(i), { maxVisits }, visitedBefore);
    });

    /** The rule itself (linkState, tags as stored) applied to the unfiltered listing. */
    const expected = async (order: LinkOrder, tag?: string, state?: LinkState) =>
      (await db.links.list({ offset: 0, limit: 100, search: prefix, order })).links
        .filter((link) => (tag === undefined || link.tags.includes(tag)) && (state === undefined || linkState(link, later) === state))
        .map((link) => link.code);
    const listed = async (query: { order?: LinkOrder; tag?: string; state?: LinkState; search?: string }, offset = 0, limit = 100) =>
      db.links.list({ offset, limit, ...query, state: query.state && { is: query.state, at: later } });
    const codesOf = (links: Link[]) => links.map((link) => link.code);

    test("the fixture has links in every state, with and without each tag", async () => {
      expect(await expected("newest", undefined, "active")).toEqual([codeAt(7), codeAt(4), codeAt(3), codeAt(0)]);
      expect(await expected("newest", undefined, "expired")).toEqual([codeAt(5), codeAt(1)]);
      expect(await expected("newest", undefined, "exhausted")).toEqual([codeAt(8), codeAt(6), codeAt(2)]);
      expect(await expected("newest", red)).toEqual([codeAt(8), codeAt(6), codeAt(5), codeAt(3), codeAt(1), codeAt(0)]);
    });

    const combinations = linkOrders.flatMap((order) =>
      [undefined, red, blue].flatMap((tag) => [undefined, ...linkStates].filter((state) => tag || state).map((state) => ({ order, tag, state }))),
    );
    test.each(combinations)("$order, tag $tag, state $state, with a search: what the rule picks, in order, counted exactly", async ({ order, tag, state }) => {
      const want = await expected(order, tag, state);
      const page = await listed({ order, tag, state, search: prefix });
      expect({ codes: codesOf(page.links), count: page.count, countIsEstimate: page.countIsEstimate, hasMore: page.hasMore }).toEqual({
        codes: want,
        count: want.length,
        countIsEstimate: false,
        hasMore: false,
      });
    });

    test.each(combinations.filter(({ tag }) => tag))("$order, tag $tag, state $state, no search: the same links", async ({ order, tag, state }) => {
      const page = await listed({ order, tag, state });
      expect({ codes: codesOf(page.links), count: page.count }).toEqual({
        codes: await expected(order, tag, state),
        count: (await expected(order, tag, state)).length,
      });
    });

    test.each(linkStates)("a state alone lists only links in it, this block's among them", async (state) => {
      const page = await listed({ state }, 0, 100_000);
      expect(page.links.filter((link) => linkState(link, later) !== state)).toEqual([]);
      expect(codesOf(page.links).filter((code) => code.startsWith(prefix))).toEqual(await expected("newest", undefined, state));
      // Other blocks add thousands of active links: past the exact limit the count is an estimate.
      if (page.links.length > defaultCountLimits.exact) expect(page.countIsEstimate).toBe(true);
      else expect({ count: page.count, countIsEstimate: page.countIsEstimate }).toEqual({ count: page.links.length, countIsEstimate: false });
    });

    test.each(linkOrders)("pages of %s with a tag and a state follow on without gaps or repeats", async (order) => {
      const query = { order, tag: red, state: "exhausted" as const };
      const whole = codesOf((await listed(query)).links);
      expect(whole.length).toBe(2);
      const first = await listed(query, 0, 1);
      const second = await listed(query, 1, 1);
      expect([first.hasMore, second.hasMore]).toEqual([true, false]);
      expect([...codesOf(first.links), ...codesOf(second.links)]).toEqual(whole);
      const redPages = await Promise.all([0, 2, 4].map((offset) => listed({ order, tag: red }, offset, 2)));
      expect(redPages.flatMap((page) => codesOf(page.links))).toEqual(await expected(order, red));
    });

    test("a tag matches whole tags only, and a search narrows it", async () => {
      expect(codesOf((await listed({ tag: `${red}d` })).links)).toEqual([]);
      expect(codesOf((await listed({ tag: red, search: `${codeAt(3)}` })).links)).toEqual([codeAt(3)]);
      expect(codesOf((await listed({ tag: blue, state: "active", search: prefix })).links)).toEqual([]);
    });

    test("the state is the caller's clock's: the same link is active before its expiry, expired at it", async () => {
      const at = (when: Date) => db.links.list({ offset: 0, limit: 10, search: codeAt(5), state: { is: "expired", at: when } });
      expect(codesOf((await at(later)).links)).toEqual([codeAt(5)]);
      expect(codesOf((await at(new Date(later.getTime() - 1))).links)).toEqual([]);
    });

    test("a link's tags changed or the link deleted: the filter follows", async () => {
      const [moved, gone] = [code("tagmv"), code("tagrm")];
      const green = `${prefix}-green`;
      await db.links.insert({ ...newLink(moved), tags: [green, blue] });
      await db.links.insert({ ...newLink(gone), tags: [green] });
      expect(codesOf((await listed({ tag: green })).links).sort()).toEqual([moved, gone].sort());
      await db.links.update(moved, { tags: [red] }, later);
      await db.links.delete(gone);
      expect(codesOf((await listed({ tag: green })).links)).toEqual([]);
      expect(codesOf((await listed({ tag: red })).links)).toContain(moved);
      expect(codesOf((await listed({ tag: blue })).links)).not.toContain(moved);
      // A visit rewrites the row but not its tags.
      await db.links.recordVisits(new Map([[moved, LinkVisits.counting(1)]]), later);
      expect(codesOf((await listed({ tag: red })).links)).toContain(moved);
    });
  });

  describe("listing orders", () => {
    const prefix = `ord${Date.now().toString(36)}`;
    const codes = Array.from({ length: 6 }, (_, i) => `${prefix}${i}`);
    const visitedAt = (minute: number) => new Date(later.getTime() + minute * 60_000);
    beforeAll(async () => {
      // Created a second apart, 0 the oldest; 0 and 4 never visited; 1 and 3 three times (3 later);
      // 2 and 5 once, both at the latest moment (a tie that the newest wins).
      for (const [i, c] of codes.entries()) await db.links.insert(newLink(c, { createdAt: new Date(t0.getTime() + i * 1000) }));
      await db.links.recordVisits(new Map([[codes[1]!, LinkVisits.counting(3)]]), visitedAt(10));
      await db.links.recordVisits(new Map([[codes[3]!, LinkVisits.counting(3)]]), visitedAt(20));
      await db.links.recordVisits(
        new Map([
          [codes[2]!, LinkVisits.counting(1)],
          [codes[5]!, LinkVisits.counting(1)],
        ]),
        visitedAt(30),
      );
    });
    const listed = async (order: LinkOrder | undefined, offset = 0, limit = 10) =>
      (await db.links.list({ offset, limit, search: prefix, order })).links.map((link) => Number(link.code.slice(prefix.length)));

    test.each([
      ["newest (the default)", undefined, [5, 4, 3, 2, 1, 0]],
      ["newest", "newest", [5, 4, 3, 2, 1, 0]],
      ["most visited, then newest", "most_visited", [3, 1, 5, 2, 4, 0]],
      ["last visited, never-visited last, then newest", "last_visited", [5, 2, 3, 1, 4, 0]],
    ] as const)("%s", async (_, order, expected) => {
      expect(await listed(order)).toEqual([...expected]);
    });

    test.each([...linkOrders])("pages of %s follow on without gaps or repeats", async (order) => {
      const whole = await listed(order);
      expect([...(await listed(order, 0, 4)), ...(await listed(order, 4, 4))]).toEqual(whole);
    });
  });

  test("stores admins by username once", async () => {
    const admin = { username: code("admin"), passwordHash: "$argon2id$x", createdAt: t0 };
    expect(await db.admins.insert(admin)).toBe(true);
    expect(await db.admins.insert({ ...admin, passwordHash: "other" })).toBe(false);
    expect(await db.admins.find(admin.username)).toEqual(admin);
    expect(await db.admins.find("nobody")).toBeNull();
  });

  test("answers a ping", async () => {
    await db.ping();
  });
});
