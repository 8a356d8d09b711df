import { describe, expect, test } from "bun:test";
import { createTestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { autovacuumWarning, serverSetting } from "../support/database-settings.ts";

describe("the server settings a benchmark at scale reports (bench/support/database-settings.ts)", () => {
  test("autovacuum off is said, with how to measure a production server; on says nothing", () => {
    expect(autovacuumWarning("off")).toContain("autovacuum is off on this server");
    expect(autovacuumWarning("off")).toContain("ALTER SYSTEM SET autovacuum = on");
    expect(autovacuumWarning("on")).toBeUndefined();
  });

  test("a setting is read as the database's sessions see it, its own over the server's", async () => {
    await using database = await createTestDatabase("bench_settings");
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`ALTER DATABASE "${database.name}" SET work_mem = '7MB'`);
    } finally {
      await admin.end();
    }
    expect(await serverSetting(database.url, "work_mem")).toBe("7MB");
    expect(["on", "off"]).toContain(await serverSetting(database.url, "autovacuum"));
  });
});
