/**
 * LOCAL provider: how long its data takes to load at start, how much memory it
 * keeps, and how long one lookup takes once loaded (country by border, then
 * the nearest place of that country in the k-d tree), in this process, with
 * no HTTP and no cache in between.
 *
 *   bun run bench:local                 # BENCH_LOOKUPS=100000 by default
 *
 * Lookups are on random points over the whole globe (uniform on the sphere,
 * so ~70 % sea), after a warm-up. A report, not a test: it exits 0 whether or
 * not a figure reaches its target.
 */
import { describeMachine, fmtInt, median, table } from "./support/report.ts";

const targets = { lookupMedianUs: 50, loadMs: 1500, extraMb: 150 };
const lookups = Number(process.env.BENCH_LOOKUPS ?? 100_000);

const megabytes = (bytes: number) => bytes / 1024 / 1024;
const settle = () => {
  Bun.gc(true);
  return { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
};

const before = settle();
const started = performance.now();
// The imports are part of the load: country-coder builds its border index when imported.
const { loadLocalProvider } = await import("../geocoder/src/local/load-local-provider.ts");
const { provider, places } = loadLocalProvider();
const loadMs = performance.now() - started;
const after = settle();

/** A point uniform on the sphere (not in lat/lon, which would crowd the poles). */
const randomPoint = (): [number, number] => [(Math.asin(2 * Math.random() - 1) * 180) / Math.PI, Math.random() * 360 - 180];
const points = Array.from({ length: lookups }, randomPoint);
for (const [lat, lon] of points.slice(0, 10_000)) provider.lookup(lat, lon);

const micros: number[] = new Array(points.length);
let land = 0;
for (let i = 0; i < points.length; i++) {
  const [lat, lon] = points[i]!;
  const t0 = Bun.nanoseconds();
  if (provider.lookup(lat, lon)) land++;
  micros[i] = (Bun.nanoseconds() - t0) / 1000;
}
micros.sort((a, b) => a - b);
const p99 = micros[Math.floor(micros.length * 0.99)]!;
const lookupMedian = median(micros);
const extraRss = megabytes(after.rss - before.rss);
const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW TARGET");

console.log(`LOCAL provider: ${fmtInt(places)} places; ${describeMachine()}; ${fmtInt(lookups)} lookups, ${((land / lookups) * 100).toFixed(0)} % on land\n`);
console.log(
  table([
    ["figure", "measured", "target", ""],
    ["load at start (import + read + index)", `${loadMs.toFixed(0)} ms`, `< ${targets.loadMs} ms`, verdict(loadMs < targets.loadMs)],
    ["extra memory, RSS after GC", `${extraRss.toFixed(1)} MB`, `< ${targets.extraMb} MB`, verdict(extraRss < targets.extraMb)],
    ["extra memory, JS heap after GC", `${megabytes(after.heap - before.heap).toFixed(1)} MB`, "", ""],
    ["lookup, median", `${lookupMedian.toFixed(1)} µs`, `< ${targets.lookupMedianUs} µs`, verdict(lookupMedian < targets.lookupMedianUs)],
    ["lookup, p99", `${p99.toFixed(1)} µs`, "", ""],
  ]),
);
