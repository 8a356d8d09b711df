import { describe, expect, test } from "bun:test";
import { register as globalRegistry, Registry } from "prom-client";
import { declareMetrics } from "../src/metrics/metric-declarations.ts";

describe("metrics declared on a service's registry", () => {
  test("land on that registry alone, with their labels, buckets and collected values", async () => {
    const registry = new Registry();
    const declare = declareMetrics(registry);
    declare.counter("probe_answers_total", "Answers.", ["cache"]).labels("L1").inc(2);
    declare.histogram("probe_seconds", "Time.", [0.1, 1]).observe(0.5);
    let pools = 3;
    declare.gauge("probe_replicas", "Replicas.", ["upstream"], (gauge) => gauge.labels("shortener").set(pools));
    declare.gauge("probe_in_flight", "In flight.").inc();

    pools = 4;
    const text = await registry.metrics();
    expect(text).toContain('probe_answers_total{cache="L1"} 2');
    expect(text).toContain('probe_seconds_bucket{le="0.1"} 0');
    expect(text).toContain('probe_seconds_bucket{le="1"} 1');
    expect(text).toContain('probe_replicas{upstream="shortener"} 4');
    expect(text).toContain("probe_in_flight 1");
    expect(await globalRegistry.metrics()).not.toContain("probe_");
  });
});
