import { describe, expect, test } from "bun:test";
import { codeOfShortUrl, readCount, readInstant, splitTags, UnreadableCell } from "../../src/transfer/foreign-cells.ts";

describe("codeOfShortUrl", () => {
  test.each([
    ["a short URL", "https://bit.ly/abc", "abc"],
    ["one without its scheme, as Bitly's ids", "bit.ly/3xYz", "3xYz"],
    ["a trailing slash", "https://s.test/abc/", "abc"],
    ["a query and a fragment", "https://s.test/abc?utm=x#top", "abc"],
    ["percent-encoding", "https://s.test/caf%C3%A9", "café"],
    ["a path of several segments, as Shlink's multi-segment slugs", "https://s.test/a/b", "a/b"],
    ["a bare code", " promo ", "promo"],
    ["a path alone", "/promo", "promo"],
    ["nothing", "  ", undefined],
    ["no cell", undefined, undefined],
  ])("reads %s", (_, value, code) => {
    expect(codeOfShortUrl(value, "link")).toBe(code);
  });

  test.each([["https://bit.ly/"], ["https://exa mple.com/x"]])("refuses %j", (value) => {
    expect(() => codeOfShortUrl(value, "link")).toThrow(UnreadableCell);
  });
});

describe("readCount", () => {
  test.each([
    ["42", 42],
    [" 0 ", 0],
    ["", undefined],
  ])("reads %j", (value, count) => {
    expect(readCount(value, "visits")).toBe(count);
  });

  test.each([["-1"], ["1.5"], ["lots"], ["1e3"], ["99999999999999999999"]])("refuses %j", (value) => {
    expect(() => readCount(value, "visits")).toThrow(`visits must be a whole number, not "${value}"`);
  });
});

describe("readInstant", () => {
  test.each([
    ["ISO 8601 with an offset", "2024-05-01T10:20:30+02:00", "2024-05-01T08:20:30.000Z"],
    ["an offset without its colon", "2020-10-26T17:20:40+0000", "2020-10-26T17:20:40.000Z"],
    ["a negative offset", "2024-05-01T10:20:30-05:30", "2024-05-01T15:50:30.000Z"],
    ["Z and a fraction", "2024-05-01T10:20:30.123456Z", "2024-05-01T10:20:30.123Z"],
    ["a SQL timestamp, taken as UTC", "2024-05-01 10:20:30", "2024-05-01T10:20:30.000Z"],
    ["minutes only", "2024-05-01 10:20", "2024-05-01T10:20:00.000Z"],
    ["a bare date", "2024-05-01", "2024-05-01T00:00:00.000Z"],
    ["Unix seconds", "1714737600", "2024-05-03T12:00:00.000Z"],
    ["a leap day", "2024-02-29", "2024-02-29T00:00:00.000Z"],
  ])("reads %s", (_, value, iso) => {
    expect(readInstant(value, "created")?.toISOString()).toBe(iso);
  });

  test("reads an empty cell as no date", () => {
    expect(readInstant(" ", "created")).toBeUndefined();
  });

  test.each([
    ["a day that does not exist", "2023-02-29"],
    ["an hour that does not exist", "2024-05-01 24:00:00"],
    ["MySQL's zero date", "0000-00-00 00:00:00"],
    ["a US date", "05/04/2024"],
    ["words", "yesterday"],
  ])("refuses %s", (_, value) => {
    expect(() => readInstant(value, "created")).toThrow(`created must be a date and time, as 2024-05-01T10:20:30Z, not "${value}"`);
  });

  test.each([
    ["a year before 1970", "1969-12-31"],
    ["year 0", "0000-01-01"],
    ["an instant before 1970 by its offset", "1970-01-01 00:00:00+00:01"],
    ["an instant after 9998 by its offset", "9998-12-31 23:59:59-00:01"],
  ])("refuses %s: what every engine stores is from 1970 to 9998", (_, value) => {
    expect(() => readInstant(value, "created")).toThrow(`created must be from 1970 to 9998, not "${value}"`);
  });

  test.each([
    ["1970-01-01 00:00:00", "1970-01-01T00:00:00.000Z"],
    ["0000000000", "1970-01-01T00:00:00.000Z"],
    ["9998-12-31T23:59:59.999Z", "9998-12-31T23:59:59.999Z"],
  ])("reads the edge %s", (value, iso) => {
    expect(readInstant(value, "created")?.toISOString()).toBe(iso);
  });
});

describe("splitTags", () => {
  test.each([
    ["a|b", /\|/, ["a", "b"]],
    [" a | | b ", /\|/, ["a", "b"]],
    ["Marketing Q1;b", /[|;,]/, ["Marketing Q1", "b"]],
    ["", /\|/, undefined],
  ])("splits %j", (value, separators, tags) => {
    expect(splitTags(value, separators)).toEqual(tags);
  });
});
