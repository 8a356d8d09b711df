import { describe, expect, test } from "bun:test";
import { streamResults } from "../src/jobs/job-results.ts";
import { openJobDatabase, SqliteJobStore } from "../src/jobs/sqlite-job-store.ts";
import { roomyQuota } from "./support/job-store-engines.ts";

describe("a job's results as a stream", () => {
  test("all of them end the stream; a job deleted while they are read cuts it off, never ends it as if complete", async () => {
    const store = new SqliteJobStore(openJobDatabase(":memory:"));
    const points = Array.from({ length: 2_500 }, (_, i) => ({ id: i, latitude: 48, longitude: 2 }));
    await store.create({ idHash: "whole", kind: "reverse", platform: null, language: null, points, createdAt: 0, client: "c" }, 1_000, roomyQuota);
    const whole = await new Response(streamResults(store, "whole", { kind: "reverse", total: 2_500, unanswered: "waiting" }, "ndjson")).text();
    expect(whole.trim().split("\n")).toHaveLength(2_500);

    await store.create({ idHash: "cut", kind: "reverse", platform: null, language: null, points, createdAt: 0, client: "c" }, 1_000, roomyQuota);
    const reader = streamResults(store, "cut", { kind: "reverse", total: 2_500, unanswered: "waiting" }, "geojson").getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toStartWith('{"type":"FeatureCollection","features":[');
    await store.cancel("cut", 0, 1_000);
    await store.deleteExpired(1_000);
    const rest = (async () => {
      for (let read = await reader.read(); !read.done; read = await reader.read());
    })();
    // The stream reads a page ahead: 1,000 or 2,000 points went before the job did.
    await expect(rest).rejects.toThrow(/^the job was deleted while its results were read \((1000|2000) of 2500 points sent\)$/);
    await store.close();
  });
});
