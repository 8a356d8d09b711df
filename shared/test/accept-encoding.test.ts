import { describe, expect, test } from "bun:test";
import { storedCodingFor, type StoredCoding } from "@linkgeo/shared";

describe("storedCodingFor (RFC 9110 §12.5.3)", () => {
  // [what, the form sent, Accept-Encoding]
  const cases: Array<[string, StoredCoding, string | null]> = [
    // What clients send
    ["no header", "identity", null],
    ["an empty header: no coding wanted", "identity", ""],
    ["a browser's list", "gzip", "gzip, deflate, br, zstd"],
    ["gzip alone", "gzip", "gzip"],
    ["another coding only", "identity", "br"],
    ["x-gzip, gzip's other name", "gzip", "x-gzip"],
    // q=0 is "not acceptable"
    ["gzip;q=0", "identity", "gzip;q=0"],
    ["gzip;q=0 among others", "identity", "br, gzip;q=0, deflate"],
    ["q=0.000", "identity", "gzip;q=0.000"],
    ["gzip refused, everything else welcome", "identity", "gzip;q=0, *"],
    ["x-gzip refused", "identity", "x-gzip;q=0"],
    // Case and spaces
    ["the coding in capitals", "gzip", "GZIP"],
    ["the weight's name in capitals", "identity", "gzip;Q=0"],
    ["spaces around the parameter", "identity", "gzip ; q=0"],
    ["tabs and spaces in the list", "gzip", " \tgzip\t ,  br "],
    // Weights against identity
    ["identity preferred to gzip", "identity", "gzip;q=0.5, identity"],
    ["gzip preferred to identity", "gzip", "gzip, identity;q=0.5"],
    ["a tie goes to gzip", "gzip", "gzip;q=0.8, identity;q=0.8"],
    ["identity refused, gzip accepted", "gzip", "gzip;q=0.1, identity;q=0"],
    ["q=1.000", "gzip", "gzip;q=1.000"],
    // The wildcard
    ["* alone", "gzip", "*"],
    ["*;q=0 with gzip named", "gzip", "gzip, *;q=0"],
    ["*;q=0 alone refuses everything: the plain file all the same", "identity", "*;q=0"],
    ["identity;q=0 alone, gzip not named", "identity", "identity;q=0"],
    ["* below identity", "identity", "*;q=0.5, identity"],
    // The first mention of a coding counts
    ["gzip named twice, refused first", "identity", "gzip;q=0, gzip"],
    ["gzip named twice, accepted first", "gzip", "gzip, gzip;q=0"],
    // Malformed elements ask for nothing
    ["a weight above 1", "identity", "gzip;q=2"],
    ["a weight with four decimals", "identity", "gzip;q=0.0001"],
    ["a negative weight", "identity", "gzip;q=-1"],
    ["a weight that is not a number", "identity", "gzip;q=abc"],
    ["an empty weight", "identity", "gzip;q="],
    ["a parameter other than q", "identity", "gzip;level=9"],
    ["two parameters", "identity", "gzip;q=1;q=0"],
    ["a dangling semicolon", "identity", "gzip;"],
    ["a malformed gzip does not hide a good one", "gzip", "gzip;q=x, gzip"],
    ["a token with a space in it", "identity", "g zip"],
    ["only separators", "identity", ",,;;,"],
    ["quotes", "identity", '"gzip"'],
    ["a 10 KB header", "identity", `${"a, ".repeat(3000)}gzip;q=0`],
  ];

  test.each(cases)("%s: %p", (_, expected, header) => {
    expect(storedCodingFor(header)).toBe(expected);
  });
});
