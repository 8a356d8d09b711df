import { describe, expect, test } from "bun:test";
import { reply, startFakeProvider, waitFor } from "@linkgeo/testing";
import type { PatientPace } from "../../src/geocoding/reverse-geocoder.ts";
import { inProcessProvider, localVienna } from "../support/in-process-provider.ts";
import { startTestGeocoder } from "../support/test-geocoder.ts";

/** Distinct points near Paris, `from` on. */
const points = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ latitude: 48.8 + (from + i) / 10_000, longitude: 2.35 }));

const spacingMs = 20;
const patient: PatientPace = { slotWaitMs: 10_000, chainTimeoutMs: 5_000, inFlight: 4 };

/**
 * A job's pace (jobs/): where a batch hands what the provider's spacing
 * cannot take in its budget to LOCAL, a patient pass waits for the
 * provider's slots, so every point gets the provider's own answer, never
 * faster than the spacing.
 */
describe("the patient pace of a job's points", () => {
  test("a batch's budget hands the rest to LOCAL; a patient pass waits for the provider's slots and asks again what LOCAL stood in for", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() }, rateLimits: { NOMINATIM: 1000 / spacingMs } },
      // A batch's whole budget holds about 6 of the provider's slots.
      chainTimeoutMs: 120,
      local: inProcessProvider([localVienna]),
    }).geocoder;

    const batch = await geocoder.reverseMany(points(0, 30));
    const byProvider = (outcomes: typeof batch) => outcomes.map((outcome) => ("answer" in outcome ? outcome.answer.provider : "error"));
    expect(byProvider(batch)).toContain("LOCAL");
    expect(byProvider(batch)).toContain("NOMINATIM");

    const pacedPoints = points(30, 30);
    const called = performance.now();
    const paced = await geocoder.reverseMany(pacedPoints, undefined, patient);
    expect(byProvider(paced)).toEqual(Array.from({ length: 30 }, () => "NOMINATIM"));
    // The pass's own requests, told by their latitude: one the batch gave up waiting for may arrive after it answered.
    const pacedLatitudes = new Set(pacedPoints.map((point) => point.latitude.toFixed(7)));
    const arrivals = nominatim.requests
      .filter((request) => pacedLatitudes.has(request.url.searchParams.get("lat") ?? ""))
      .map((request) => request.at)
      .sort((x, y) => x - y);
    expect(arrivals).toHaveLength(30);
    // The pass's first slot is no sooner than its call, the next ones a spacing apart each, and a request never
    // leaves before its slot: the j-th arrives at least j spacings after the call (less 1 ms: the limiter's clock
    // counts whole ms). Measured from the call, not from the first arrival: the fake may read that one late on a
    // loaded machine (a loaded run saw the 6th 80 ms after the first, their slots 100 apart).
    const firstTooSoon = arrivals.map((at, j) => ({ j, after: at - called })).find(({ j, after }) => after < j * spacingMs - 1);
    expect(firstTooSoon).toBeUndefined();

    // The batch's fallbacks are cached, briefly: a batch takes them, a patient pass asks the provider.
    const fellBack = points(0, 30).filter((_, i) => byProvider(batch)[i] === "LOCAL");
    expect(byProvider(await geocoder.reverseMany(fellBack))).toEqual(fellBack.map(() => "LOCAL"));
    const again = await geocoder.reverseMany(fellBack, undefined, patient);
    expect(again.map((outcome) => ("answer" in outcome ? [outcome.answer.provider, outcome.answer.cache] : "error"))).toEqual(
      fellBack.map(() => ["NOMINATIM", "MISS"]),
    );
  });

  test("a job fills the spare slots only: single queries made while it runs still get the provider's answer", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() }, rateLimits: { NOMINATIM: 1000 / spacingMs } },
      local: inProcessProvider([localVienna]),
      chainTimeoutMs: 1_000,
    }).geocoder;
    // 80 points in flight at once: booked ahead, their slots would reach 1.6 s out, past a single query's 1 s.
    const job = geocoder.reverseMany(points(100, 80), undefined, { ...patient, inFlight: 80 });
    await waitFor("the job under way", () => nominatim.requests.length >= 5);
    const singles: string[] = [];
    for (const point of points(500, 5)) singles.push((await geocoder.reverse(point)).provider);
    expect(singles).toEqual(["NOMINATIM", "NOMINATIM", "NOMINATIM", "NOMINATIM", "NOMINATIM"]);
    const answered = await job;
    expect(answered.every((outcome) => "answer" in outcome && outcome.answer.provider === "NOMINATIM")).toBe(true);
  });
});
