/**
 * LOCAL's forward search (issue 51): the table of queries made for the tests
 * (geocoder/test/fixtures/forward-queries.json: exact names, diacritics, one
 * and two typos, prefixes, "name, region" and "name region", ambiguous names
 * with and without a bias, another script), each asked of LOCAL alone; how
 * often the expected place comes first, by kind of query; how long a query
 * takes (after a warm-up, every query asked BENCH_ROUNDS times, 20 by
 * default); and what the index costs: the time to build it and the memory it
 * keeps, measured by building a second one over the same places.
 *
 *   bun run bench:forward
 *
 * Targets: the expected place first for at least 95 % of the queries, a
 * query under 2 ms at the 95th percentile, the index built in under 2 s and
 * under 100 MB. A report, not a test: it exits 0 either way.
 */
import { megabytes, settledMemory } from "./support/memory.ts";
import { describeMachine, median, table } from "./support/report.ts";

const targets = { firstShare: 0.95, p95Ms: 2, buildMs: 2_000, extraMb: 100 };
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);

interface TableQuery {
  q: string;
  kind: string;
  expect: { settlement: string; country_code: string; state?: string };
  near?: [number, number];
  bbox?: [number, number, number, number];
  country?: string[];
}

const { loadLocalProvider } = await import("../geocoder/src/local/load-local-provider.ts");
const { PlaceSearch } = await import("../geocoder/src/search/place-search.ts");
const { provider } = loadLocalProvider();
const { queries } = (await Bun.file(new URL("../geocoder/test/fixtures/forward-queries.json", import.meta.url)).json()) as { queries: TableQuery[] };

// The index alone: a second one over the same places, its time and what it keeps after a collection.
const before = settledMemory();
const started = performance.now();
const search = new PlaceSearch(provider.searchable);
const buildMs = performance.now() - started;
const after = settledMemory();

const asked = (query: TableQuery) => ({
  text: query.q,
  limit: 5,
  countries: query.country && new Set(query.country),
  near: query.near && { latitude: query.near[0], longitude: query.near[1] },
  bbox: query.bbox && { south: query.bbox[0], west: query.bbox[1], north: query.bbox[2], east: query.bbox[3] },
});

const byKind = new Map<string, { asked: number; first: number }>();
const misses: string[] = [];
for (const query of queries) {
  const [top] = search.search(asked(query));
  const address = top && provider.placeAddress(top.place);
  const { expect } = query;
  const right =
    address !== undefined &&
    address.settlement === expect.settlement &&
    address.country_code === expect.country_code &&
    (expect.state === undefined || address.state === expect.state);
  const kind = byKind.get(query.kind) ?? { asked: 0, first: 0 };
  kind.asked++;
  if (right) kind.first++;
  else
    misses.push(
      `${JSON.stringify(query.q)}: expected ${expect.settlement}, ${expect.state ?? ""} ${expect.country_code}; got ${address ? `${address.settlement}, ${address.state ?? ""} ${address.country_code}` : "nothing"}`,
    );
  byKind.set(query.kind, kind);
}

for (const query of queries) search.search(asked(query));
const millis: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const query of queries) {
    const t0 = Bun.nanoseconds();
    search.search(asked(query));
    millis.push((Bun.nanoseconds() - t0) / 1e6);
  }
}
millis.sort((a, b) => a - b);
const p95 = millis[Math.floor(millis.length * 0.95)]!;
const first = queries.length - misses.length;
const share = first / queries.length;
const extraMb = megabytes(after.rss - before.rss);
const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW TARGET");

console.log(`LOCAL forward search: ${queries.length} queries; ${describeMachine()}; index ${JSON.stringify(search.sizes)}\n`);
console.log(
  table([
    ["kind of query", "first", "asked", "share"],
    ...[...byKind].map(([kind, { asked, first }]) => [kind, String(first), String(asked), `${((first / asked) * 100).toFixed(1)} %`]),
    ["all", String(first), String(queries.length), `${(share * 100).toFixed(1)} %`],
  ]),
);
console.log(
  `\n${table([
    ["figure", "measured", "target", ""],
    ["expected place first", `${(share * 100).toFixed(1)} %`, `>= ${targets.firstShare * 100} %`, verdict(share >= targets.firstShare)],
    ["query, median", `${median(millis).toFixed(3)} ms`, "", ""],
    ["query, p95", `${p95.toFixed(3)} ms`, `< ${targets.p95Ms} ms`, verdict(p95 < targets.p95Ms)],
    ["query, p99", `${millis[Math.floor(millis.length * 0.99)]!.toFixed(3)} ms`, "", ""],
    ["index build", `${buildMs.toFixed(0)} ms`, `< ${targets.buildMs} ms`, verdict(buildMs < targets.buildMs)],
    ["index memory, RSS after GC", `${extraMb.toFixed(1)} MB`, `< ${targets.extraMb} MB`, verdict(extraMb < targets.extraMb)],
    ["index memory, JS heap after GC", `${megabytes(after.heap - before.heap).toFixed(1)} MB`, "", ""],
  ])}`,
);
if (misses.length > 0) console.log(`\nnot first (${misses.length}):\n${misses.map((miss) => `  ${miss}`).join("\n")}`);
