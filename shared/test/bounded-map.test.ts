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

  test("a key written again and again stays the youngest, and every other key keeps its place", () => {
    const map = new BoundedMap<number, number>(1_000);
    for (let i = 0; i < 1_000; i++) map.set(i, i);
    for (let round = 0; round < 5_000; round++) map.set(500, round);
    expect(map.size).toBe(1_000);
    const keys = [...map.entries()].map(([key]) => key);
    expect(keys.at(-1)).toBe(500);
    expect(keys.slice(0, -1)).toEqual([...Array.from({ length: 500 }, (_, i) => i), ...Array.from({ length: 499 }, (_, i) => 501 + i)]);
    map.set(1_000, 1_000);
    expect([map.get(0), map.get(500), map.size]).toEqual([undefined, 4_999, 1_000]);
  });

  test("an iteration passes over an entry deleted ahead of it, and ends when the order does", () => {
    const map = new BoundedMap<number, number>(5);
    for (let i = 0; i < 5; i++) map.set(i, i);
    const seen: number[] = [];
    for (const [key] of map.entries()) {
      seen.push(key);
      if (key === 1) map.delete(2);
    }
    expect(seen).toEqual([0, 1, 3, 4]);
    expect([...new BoundedMap<number, number>(3).entries()]).toEqual([]);
  });

  test("an iteration goes on as a Map's would when the loop writes or reads an entry ahead of it", () => {
    const walk = (change: (map: BoundedMap<number, number>) => void, refreshOnRead = false) => {
      const map = new BoundedMap<number, number>(6, { refreshOnRead });
      for (let i = 0; i < 6; i++) map.set(i, i);
      const seen: number[] = [];
      for (const [key] of map.entries()) {
        seen.push(key);
        if (key === 1 && seen.length === 2) change(map);
      }
      return seen;
    };
    expect(walk((map) => map.set(2, 20))).toEqual([0, 1, 3, 4, 5, 2]);
    expect(walk((map) => map.get(2), true)).toEqual([0, 1, 3, 4, 5, 2]);
    expect(
      walk((map) => {
        map.delete(2);
        map.set(3, 30);
      }),
    ).toEqual([0, 1, 4, 5, 3]);
    expect(walk((map) => map.set(1, 10))).toEqual([0, 1, 2, 3, 4, 5, 1]);
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
