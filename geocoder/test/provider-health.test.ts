import { describe, expect, test } from "bun:test";
import type { HealthStore } from "../src/health/health-store.ts";
import { MemoryHealthStore } from "../src/health/memory-health-store.ts";
import { ProviderHealth, type ProviderHealthOptions } from "../src/providers/provider-health.ts";

const start = Date.parse("2026-11-22T08:00:00.000Z");
const at = (ms: number) => new Date(start + ms);

let providers = 0;
/** A provider name no other test uses, so tests sharing a store never meet. */
const freshProvider = () => `TESTGEO_${++providers}`;

/**
 * The contract of provider health, run on every store: what one ProviderHealth
 * sees is the same whether its state is kept in this process or elsewhere.
 */
describe.each([["memory", () => new MemoryHealthStore()]] as Array<[string, () => HealthStore]>)("provider health on %s", (_, makeStore) => {
  const store = makeStore();
  const healthOf = (options: ProviderHealthOptions = {}) => new ProviderHealth({ provider: freshProvider(), store, clock: () => at(0), ...options });

  test("three failures in a row take it out for 30 s; a success in between starts the count again", async () => {
    const health = healthOf();
    await health.recordFailure("timeout", at(0));
    await health.recordFailure("timeout", at(0));
    await health.recordSuccess(at(0));
    await health.recordFailure("timeout", at(0));
    await health.recordFailure("timeout", at(0));
    expect(await health.available(at(0))).toBe(true);
    expect(await health.recordFailure("unreachable", at(1_000))).toBe("opened");
    expect(await health.available(at(1_000))).toBe(false);
    expect(await health.retryAt(at(1_000))).toEqual(at(31_000));
    expect(await health.admit(at(30_999))).toEqual({ admitted: false, why: "failing", retryAt: at(31_000), lastFailure: "unreachable" });
  });

  test("lets one trial through after the wait; its success closes the breaker", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("upstream_error", at(0));
    expect(await health.admit(at(10_000))).toEqual({ admitted: true, trial: true, since: at(10_000) });
    expect(await health.admit(at(10_001))).toEqual({ admitted: false, why: "failing", retryAt: undefined, lastFailure: "upstream_error" });
    expect(await health.recordSuccess(at(10_001))).toBe("closed");
    expect(await health.admit(at(10_002))).toEqual({ admitted: true, trial: false });
  });

  test("a failed trial reopens it; a released trial lets the next call be the trial", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("bad_response", at(0));
    const trial = await health.admit(at(10_000));
    await health.release(trial, at(10_000));
    expect(await health.admit(at(10_001))).toEqual({ admitted: true, trial: true, since: at(10_001) });
    expect(await health.recordFailure("bad_response", at(10_500))).toBe("opened");
    expect(await health.retryAt(at(10_500))).toEqual(at(20_500));
  });

  test("a trial that never reports back stops blocking after another period", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    expect(await health.admit(at(10_000))).toMatchObject({ admitted: true, trial: true });
    expect(await health.available(at(19_999))).toBe(false);
    expect(await health.admit(at(20_000))).toEqual({ admitted: true, trial: true, since: at(20_000) });
  });

  test("a late release of a trial that was given up on does not free the trial that replaced it", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    const stale = await health.admit(at(10_000));
    expect(await health.admit(at(20_000))).toMatchObject({ trial: true });
    await health.release(stale, at(20_500));
    expect(await health.admit(at(20_600))).toEqual({ admitted: false, why: "failing", retryAt: undefined, lastFailure: "timeout" });
  });

  test("a late failure while the breaker is open changes nothing but the reason", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("timeout", at(0));
    expect(await health.recordFailure("upstream_error", at(5_000))).toBeUndefined();
    expect(await health.admit(at(5_000))).toEqual({ admitted: false, why: "failing", retryAt: at(10_000), lastFailure: "upstream_error" });
  });

  test("a cooldown keeps it out until the date, the later one winning", async () => {
    const health = healthOf();
    await health.coolDownUntil(at(60_000), at(0));
    await health.coolDownUntil(at(30_000), at(0));
    expect(await health.admit(at(59_999))).toEqual({ admitted: false, why: "rate_limited", retryAt: at(60_000), lastFailure: undefined });
    expect(await health.available(at(60_000))).toBe(true);
  });

  test("a cooldown during an open breaker waits for the later of the two", async () => {
    const health = healthOf({ failureThreshold: 1, openMs: 10_000 });
    await health.recordFailure("upstream_error", at(0));
    await health.coolDownUntil(at(5_000), at(0));
    expect(await health.admit(at(1_000))).toEqual({ admitted: false, why: "rate_limited", retryAt: at(10_000), lastFailure: "upstream_error" });
  });

  test("providers are kept apart", async () => {
    const [one, two] = [healthOf({ failureThreshold: 1 }), healthOf({ failureThreshold: 1 })];
    await one.recordFailure("timeout", at(0));
    expect([await one.available(at(1)), await two.available(at(1))]).toEqual([false, true]);
  });
});
