import { describe, expect, test } from "bun:test";
import { fileTimes, slowestReport } from "./test-times.ts";

const junit = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="bun test" tests="5" assertions="9" failures="0" skipped="0" time="12.5">
  <testsuite name="a.test.ts" file="gateway/test/a.test.ts" tests="2" assertions="3" failures="0" skipped="0" time="1.25" hostname="vm">
    <testsuite name="inner" file="gateway/test/a.test.ts" line="4" tests="2" assertions="3" failures="0" skipped="0" time="99" hostname="vm">
      <testcase name="x" classname="inner" time="0.1" file="gateway/test/a.test.ts" line="5" assertions="1" />
    </testsuite>
  </testsuite>
  <testsuite name="b.test.ts" file="shortener/test/b.test.ts" tests="3" assertions="6" failures="0" skipped="0" time="11" hostname="vm">
  </testsuite>
</testsuites>
`;

describe("the slowest test files of a run", () => {
  test("reads each file's own suite, not its nested describe blocks, slowest first", () => {
    expect(fileTimes(junit)).toEqual([
      { file: "shortener/test/b.test.ts", tests: 3, seconds: 11 },
      { file: "gateway/test/a.test.ts", tests: 2, seconds: 1.25 },
    ]);
  });

  test("reports the slowest few with the total", () => {
    expect(slowestReport(fileTimes(junit), 1)).toBe("the 1 slowest of 2 test files (12 s in all):\n   11.0 s     3 tests  shortener/test/b.test.ts");
    expect(slowestReport([], 15)).toBe("the 0 slowest of 0 test files (0 s in all):");
  });
});
