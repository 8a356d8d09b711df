/**
 * Visit analytics' IP-to-country data: how long it takes to open at start,
 * how much memory it keeps, and how long one `countryOf` takes once loaded,
 * in this process, with nothing in between.
 *
 *   bun run bench:ip-country            # BENCH_LOOKUPS=100000 by default
 *
 * Lookups are of random addresses, half IPv4 (uniform over the 32 bits) and
 * half IPv6 (uniform under 2000::/3, where every global unicast address
 * lies), written as text, as a request's client address reaches it: so the
 * time includes `parseIp` and the check for private and other non-public
 * ranges, printed apart as a baseline. The shared package (Elysia and all)
 * is imported before the first measurement: the shortener has it loaded
 * anyway, so the figures are what the table adds. A report, not a test: it
 * exits 0 whether or not a figure reaches its target.
 */
import { parseIp } from "@linkgeo/shared";
import { megabytes, settledMemory } from "./support/memory.ts";
import { describeMachine, fmtInt, median, table } from "./support/report.ts";

const targets = { lookupMedianNs: 2_000, loadMs: 1_000, extraMb: 40 };
const lookups = Number(process.env.BENCH_LOOKUPS ?? 100_000);

const before = settledMemory();
const started = performance.now();
const { loadIpCountries } = await import("../shortener/src/visits/load-ip-countries.ts");
const { countries, dataset, builtAt } = loadIpCountries();
const loadMs = performance.now() - started;
const after = settledMemory();

const randomIpv4 = () => [0, 0, 0, 0].map(() => Math.floor(Math.random() * 256)).join(".");
const randomIpv6 = () =>
  [0x2000 + Math.floor(Math.random() * 0x2000), ...Array.from({ length: 7 }, () => Math.floor(Math.random() * 0x10000))]
    .map((group) => group.toString(16))
    .join(":");
const addresses = Array.from({ length: lookups }, (_, i) => (i % 2 === 0 ? randomIpv4() : randomIpv6()));

/** Times `lookup` on every address (after a warm-up); the sorted nanoseconds per family, and how many had an answer. */
function time(lookup: (address: string) => unknown) {
  for (const address of addresses.slice(0, 10_000)) lookup(address);
  const ipv4: number[] = [];
  const ipv6: number[] = [];
  let answered = 0;
  for (let i = 0; i < addresses.length; i++) {
    const t0 = Bun.nanoseconds();
    const answer = lookup(addresses[i]!);
    const ns = Bun.nanoseconds() - t0;
    (i % 2 === 0 ? ipv4 : ipv6).push(ns);
    if (answer !== "unknown" && answer !== undefined) answered++;
  }
  return { ipv4: median(ipv4), ipv6: median(ipv6), all: [...ipv4, ...ipv6].sort((a, b) => a - b), answered };
}

const baseline = time(parseIp);
const measured = time((address) => countries.countryOf(address));
const lookupMedian = median(measured.all);
const p99 = measured.all[Math.floor(measured.all.length * 0.99)]!;
const extraRss = megabytes(after.rss - before.rss);
const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW TARGET");
const ns = (value: number) => `${fmtInt(value)} ns`;

console.log(
  `IP countries: ${dataset}, built ${builtAt.toISOString().slice(0, 10)}; ${describeMachine()}; ` +
    `${fmtInt(lookups)} lookups, ${((measured.answered / lookups) * 100).toFixed(0)} % answered\n`,
);
console.log(
  table([
    ["figure", "measured", "target", ""],
    ["open at start (read the file)", `${loadMs.toFixed(0)} ms`, `< ${targets.loadMs} ms`, verdict(loadMs < targets.loadMs)],
    ["extra memory, RSS after GC", `${extraRss.toFixed(1)} MB`, `< ${targets.extraMb} MB`, verdict(extraRss < targets.extraMb)],
    ["extra memory, JS heap after GC", `${megabytes(after.heap - before.heap).toFixed(1)} MB`, "", ""],
    ["countryOf, median", ns(lookupMedian), `< ${fmtInt(targets.lookupMedianNs)} ns`, verdict(lookupMedian < targets.lookupMedianNs)],
    ["countryOf, median, IPv4 / IPv6", `${ns(measured.ipv4)} / ${ns(measured.ipv6)}`, "", ""],
    ["countryOf, p99", ns(p99), "", ""],
    ["baseline: parseIp alone, median IPv4 / IPv6", `${ns(baseline.ipv4)} / ${ns(baseline.ipv6)}`, "", ""],
  ]),
);
