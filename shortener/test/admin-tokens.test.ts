import { describe, expect, test } from "bun:test";
import { AdminTokens } from "../src/auth/admin-tokens.ts";
import { hashManageToken, manageTokenMatches, newManageToken } from "../src/auth/manage-token.ts";

describe("admin tokens", () => {
  const secret = "s".repeat(32);
  let now = new Date("2026-11-22T00:00:00Z");
  const tokens = new AdminTokens(secret, () => now, 60_000);

  test("verify the admin they were issued to until they expire", () => {
    now = new Date("2026-11-22T00:00:00Z");
    const { token, expiresAt } = tokens.issue("alice");
    expect(expiresAt).toEqual(new Date("2026-11-22T00:01:00Z"));
    expect(tokens.verify(token)).toBe("alice");
    now = new Date("2026-11-22T00:01:00Z");
    expect(tokens.verify(token)).toBeNull();
  });

  test("refuse a token signed with another key, a changed payload, or garbage", () => {
    now = new Date("2026-11-22T00:00:00Z");
    const { token } = new AdminTokens("o".repeat(32), () => now).issue("alice");
    expect(tokens.verify(token)).toBeNull();
    const [, signature] = tokens.issue("alice").token.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ sub: "mallory", exp: 9e15 })).toString("base64url");
    expect(tokens.verify(`${forgedPayload}.${signature}`)).toBeNull();
    expect(tokens.verify("a.b.c")).toBeNull();
    expect(tokens.verify("not-a-token")).toBeNull();
  });
});

describe("manage tokens", () => {
  test("are 32 random bytes, kept only as a hash that matches them alone", () => {
    const { token, hash } = newManageToken();
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(hash).toBe(hashManageToken(token));
    expect(hash).not.toContain(token);
    expect(manageTokenMatches(token, hash)).toBe(true);
    expect(manageTokenMatches(newManageToken().token, hash)).toBe(false);
    expect(AdminTokens.looksLikeAdminToken(token)).toBe(false);
  });
});
