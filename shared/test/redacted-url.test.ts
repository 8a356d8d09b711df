import { describe, expect, test } from "bun:test";
import { redactedUrl } from "../src/core/redacted-url.ts";

describe("redactedUrl", () => {
  test.each([
    ["redis://cache:6379/1", "redis://cache:6379/1"],
    ["redis://:hunter2@cache:6379", "redis://:***@cache:6379"],
    ["rediss://app:hunter2@cache:6379/2", "rediss://app:***@cache:6379/2"],
    // A password may hold an `@`: the user part runs to the last one.
    ["redis://app:p@ss@cache", "redis://app:***@cache"],
    // A lone user part may be a password put there.
    ["redis://hunter2@cache", "redis://***@cache"],
    ["redis+sentinel://:hunter2@s1:26379,s2:26379/primary/0", "redis+sentinel://:***@s1:26379,s2:26379/primary/0"],
    // The query may carry options a client reads, a password among them.
    ["redis://cache:6379/0?password=hunter2", "redis://cache:6379/0?…"],
  ])("%s is shown as %s", (raw, shown) => {
    expect(redactedUrl(raw)).toBe(shown);
  });
});
