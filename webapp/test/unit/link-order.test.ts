import { describe, expect, test } from "bun:test";
import { listView, type ListedLink, type ListedStats } from "../../src/components/your-links/link-order.ts";

const link = (code: string, created: string, long = `https://example.com/${code}`): ListedLink => ({
  short_url: code,
  link: `http://s.test/${code}/`,
  long_url: long,
  created_at: created,
});

// In the order this browser added them: the latest added first.
const links = [link("ccc", "2026-01-03T00:00:00Z"), link("aaa", "2026-01-01T00:00:00Z"), link("bbb", "2026-01-02T00:00:00Z", "https://shop.test/")];
const stats: Record<string, ListedStats | null> = {
  aaa: { access_count: 5, last_accessed_at: "2026-02-01T00:00:00Z" },
  bbb: { access_count: 9, last_accessed_at: "2026-01-05T00:00:00Z" },
  ccc: null,
};
const codes = (view: { shown: ListedLink[] }) => view.shown.map((shown) => shown.short_url);
const first = { search: "", page: 1 };

describe("a page of Your links", () => {
  test("keeps the order the links were added in, or sorts by creation, visits or last visit; a gone link sorts last", () => {
    const statsOf = (code: string) => stats[code];
    expect(codes(listView(links, { ...first, order: "added" }, statsOf))).toEqual(["ccc", "aaa", "bbb"]);
    expect(codes(listView(links, { ...first, order: "newest" }, statsOf))).toEqual(["ccc", "bbb", "aaa"]);
    expect(codes(listView(links, { ...first, order: "oldest" }, statsOf))).toEqual(["aaa", "bbb", "ccc"]);
    expect(codes(listView(links, { ...first, order: "most_visited" }, statsOf))).toEqual(["bbb", "aaa", "ccc"]);
    expect(codes(listView(links, { ...first, order: "last_visited" }, statsOf))).toEqual(["aaa", "bbb", "ccc"]);
  });

  test("shows those matching the search, over the code, the short link and the destination, in any case", () => {
    const view = listView(links, { search: "SHOP", order: "added", page: 1 }, () => undefined);
    expect({ matching: view.matching, shown: codes(view) }).toEqual({ matching: 1, shown: ["bbb"] });
  });

  test("twenty a page; a page past the last shows the last, one before the first the first", () => {
    const many = Array.from({ length: 45 }, (_, i) => link(`code${i}`, "2026-01-01T00:00:00Z"));
    const second = listView(many, { search: "", order: "added", page: 2 }, () => undefined);
    expect({ pages: second.pages, page: second.page, first: second.shown[0]?.short_url, count: second.shown.length }).toEqual({
      pages: 3,
      page: 2,
      first: "code20",
      count: 20,
    });
    expect(listView(many, { search: "", order: "added", page: 9 }, () => undefined).shown.length).toBe(5);
    expect(listView(many, { search: "", order: "added", page: 0 }, () => undefined).page).toBe(1);
    expect(listView([], { search: "", order: "added", page: 1 }, () => undefined)).toEqual({ matching: 0, pages: 1, page: 1, shown: [] });
  });

  test("a creation time that is no time, from hostile storage, sorts as the oldest", () => {
    const odd = [link("bad", "<i>then</i>"), link("ok", "2026-01-01T00:00:00Z"), link("worse", "")];
    expect(codes(listView(odd, { ...first, order: "newest" }, () => undefined))).toEqual(["ok", "bad", "worse"]);
    expect(codes(listView(odd, { ...first, order: "oldest" }, () => undefined))).toEqual(["bad", "worse", "ok"]);
  });
});
