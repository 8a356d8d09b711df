import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/**
 * A service's metrics declared on its own registry, one line each: the
 * registry is bound once here, so no declaration can land on prom-client's
 * global one. Label names are typed: `labels()` takes exactly those.
 */
export function declareMetrics(registry: Registry) {
  const registers = [registry];
  return {
    counter: <Label extends string = never>(name: string, help: string, labelNames: readonly Label[] = []) =>
      new Counter<Label>({ name, help, labelNames, registers }),
    histogram: <Label extends string = never>(name: string, help: string, buckets: number[], labelNames: readonly Label[] = []) =>
      new Histogram<Label>({ name, help, buckets, labelNames, registers }),
    /** A gauge read when scraped: `collect` sets its values. */
    gauge: <Label extends string = never>(name: string, help: string, labelNames: readonly Label[] = [], collect?: (gauge: Gauge<Label>) => void) =>
      new Gauge<Label>({
        name,
        help,
        labelNames,
        registers,
        ...(collect && {
          collect(this: Gauge<Label>) {
            collect(this);
          },
        }),
      }),
  };
}
