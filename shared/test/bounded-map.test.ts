import { describe, expect, test } from "bun:test";
import { BoundedMap } from "@linkgeo/shared";

describe("BoundedMap", () => {
  test.each([0, -1, 1.5, Number.NaN])("refuses a capacity of %p", (capacity) => {
    expect(() => new BoundedMap(capacity)).toThrow("at least one entry");
  });

  test("past capacity the oldest written goes; rewriting a key makes it the youngest", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 3);
    map.set("c", 4);
    expect([...map.entries()]).toEqual([
      ["a", 3],
      ["c", 4],
    ]);
    expect(map.size).toBe(2);
  });

  test("a read does not save a key from going, unless refreshOnRead", () => {
    const fifo = new BoundedMap<string, number>(2);
    const lru = new BoundedMap<string, number>(2, { refreshOnRead: true });
    for (const map of [fifo, lru]) {
      map.set("a", 1);
      map.set("b", 2);
      expect(map.get("a")).toBe(1);
      map.set("c", 3);
    }
    expect([fifo.get("a"), fifo.get("b"), fifo.get("c")]).toEqual([undefined, 2, 3]);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
  });

  test("delete frees room, and entries may be deleted while iterating", () => {
    const map = new BoundedMap<number, number>(5);
    for (let i = 0; i < 5; i++) map.set(i, i * 10);
    for (const [key] of map.entries()) if (key % 2 === 0) map.delete(key);
    expect([...map.entries()]).toEqual([
      [1, 10],
      [3, 30],
    ]);
    expect(map.delete(1)).toBe(true);
    expect(map.delete(1)).toBe(false);
  });
});
