/**
 * LOCAL provider: how long its data takes to load at start, how much memory it
 * keeps, and how long one lookup takes once loaded (land or sea and region in
 * the admin-1 grid, country by border, then the nearest place of that country
 * in the k-d tree), in this process, with no HTTP and no cache in between.
 *
 *   bun run bench:local                 # BENCH_LOOKUPS=100000 by default
 *
 * Lookups are on random points over the whole globe (uniform on the sphere,
 * so ~70 % sea), after a warm-up. The same points are also timed through
 * country-coder alone, the baseline: a lookup's cost is printed as a ratio to
 * it, which drifts less than microseconds on a shared machine. A report, not
 * a test: it exits 0 whether or not a figure reaches its target.
 */
import { megabytes, settledMemory } from "./support/memory.ts";
import { describeMachine, fmtInt, median, table } from "./support/report.ts";

const targets = { lookupMedianUs: 50, loadMs: 1500, extraMb: 150 };
const lookups = Number(process.env.BENCH_LOOKUPS ?? 100_000);

const before = settledMemory();
const started = performance.now();
// The imports are part of the load: country-coder builds its border index when imported.
const { loadLocalProvider } = await import("../geocoder/src/local/load-local-provider.ts");
const { provider, places, regions } = loadLocalProvider();
const loadMs = performance.now() - started;
const after = settledMemory();

/** A point uniform on the sphere (not in lat/lon, which would crowd the poles). */
const randomPoint = (): [number, number] => [(Math.asin(2 * Math.random() - 1) * 180) / Math.PI, Math.random() * 360 - 180];
const points = Array.from({ length: lookups }, randomPoint);
const { countryAt } = await import("../geocoder/src/local/country-lookup.ts");

/** Times `lookup` on every point (after a warm-up); returns the sorted microseconds, those of the points it found something at, and how many. */
function time(lookup: (lat: number, lon: number) => unknown): { micros: number[]; foundMicros: number[]; found: number } {
  for (const [lat, lon] of points.slice(0, 10_000)) lookup(lat, lon);
  const micros: number[] = new Array(points.length);
  const foundMicros: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const [lat, lon] = points[i]!;
    const t0 = Bun.nanoseconds();
    const answered = lookup(lat, lon);
    micros[i] = (Bun.nanoseconds() - t0) / 1000;
    if (answered) foundMicros.push(micros[i]!);
  }
  return { micros: micros.sort((a, b) => a - b), foundMicros: foundMicros.sort((a, b) => a - b), found: foundMicros.length };
}

const baseline = time(countryAt);
const { micros, foundMicros: landMicros, found: land } = time((lat, lon) => provider.lookup(lat, lon));
const p99 = micros[Math.floor(micros.length * 0.99)]!;
const lookupMedian = median(micros);
const baselineMedian = median(baseline.micros);
const extraRss = megabytes(after.rss - before.rss);
const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW TARGET");

console.log(
  `LOCAL provider: ${fmtInt(places)} places, ${fmtInt(regions)} regions; ${describeMachine()}; ` +
    `${fmtInt(lookups)} lookups, ${((land / lookups) * 100).toFixed(0)} % answered (on land or by a shore)\n`,
);
console.log(
  table([
    ["figure", "measured", "target", ""],
    ["load at start (import + read + index)", `${loadMs.toFixed(0)} ms`, `< ${targets.loadMs} ms`, verdict(loadMs < targets.loadMs)],
    ["extra memory, RSS after GC", `${extraRss.toFixed(1)} MB`, `< ${targets.extraMb} MB`, verdict(extraRss < targets.extraMb)],
    ["extra memory, JS heap after GC", `${megabytes(after.heap - before.heap).toFixed(1)} MB`, "", ""],
    ["lookup, median", `${lookupMedian.toFixed(1)} µs`, `< ${targets.lookupMedianUs} µs`, verdict(lookupMedian < targets.lookupMedianUs)],
    ["lookup, p99", `${p99.toFixed(1)} µs`, "", ""],
    ["lookup answered (land, shore), median", `${median(landMicros).toFixed(1)} µs`, "", ""],
    ["lookup answered (land, shore), p99", `${landMicros[Math.floor(landMicros.length * 0.99)]!.toFixed(1)} µs`, "", ""],
    ["baseline: country-coder alone, median", `${baselineMedian.toFixed(1)} µs`, "", ""],
    ["lookup median / baseline median", `${(lookupMedian / baselineMedian).toFixed(2)}×`, "", ""],
  ]),
);

// How often LOCAL names the settlement the real providers give, on the test suite's table.
const { agrees, settlementTable } = await import("../geocoder/test/support/settlement-table.ts");
const agreeing = settlementTable.filter((point) => agrees(provider.lookup(point.latitude, point.longitude)?.settlement ?? null, point)).length;
console.log(
  `\nsettlement table (geocoder/test/support/settlement-table.ts): ${agreeing}/${settlementTable.length} points ` +
    `(${((agreeing / settlementTable.length) * 100).toFixed(1)} %) name the providers' settlement; target >= 80 %`,
);
