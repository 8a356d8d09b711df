/**
 * Writes `webapp/src/assets/world-map.svg`, the country map the web
 * app's geocoder playground is clicked on: drawn from the regions the
 * geocoder already ships (`geocoder/assets/regions.bin.gz`, Natural Earth's
 * 1:10m admin-1 polygons, public domain), so it needs no tile server and
 * works offline. The gateway's image holds only gateway/ and shared/, so the
 * map is committed there; run this again only when the regions change.
 *
 *   bun run build:world-map              # writes the committed file
 *   bun run build:world-map out.svg      # writes elsewhere (the test compares the two)
 *
 * Projection: plate carrée in a viewBox of 0 0 360 180, x = longitude + 180
 * and y = 90 − latitude, so a click maps back to coordinates with one
 * subtraction each (webapp/src/world-map.ts).
 *
 * The regions of each country are merged into one outline: a border two of
 * its regions share runs through both of their rings and cancels out, as it
 * does for the geocoder's even-odd point test (region-grid.ts). The outlines
 * are then cut into arcs where three or more meet, and each arc is
 * simplified (Douglas–Peucker) once for both countries it separates, so
 * neighbours keep one common border: no slivers and no gaps between them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readRegionsExtract, regionsExtractPath, unitsPerDegree, type RegionsExtract } from "../geocoder/src/local/regions-extract.ts";

export const worldMapPath = join(import.meta.dir, "../webapp/src/assets/world-map.svg");

/** What the map is drawn from: this script, the extract's reader and the extract itself. */
export const worldMapInputs = [import.meta.path, join(import.meta.dir, "../geocoder/src/local/regions-extract.ts"), regionsExtractPath];

/** SHA-256 (hex) of the inputs, in order: written into the map, so a test can tell it is current without drawing it again. */
export function worldMapInputsHash(): string {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const path of worldMapInputs) hasher.update(readFileSync(path));
  return hasher.digest("hex");
}

/** SHA-256 (hex) of the lines below the map's hashes: a hand edit changes it. */
export function drawingHash(lines: readonly string[]): string {
  return new Bun.CryptoHasher("sha256").update(lines.join("\n")).digest("hex");
}

const hashesLine = /^ {5}Built from inputs sha256 ([0-9a-f]{64}), the lines below sha256 ([0-9a-f]{64})\. -->$/;

/** The hashes a map says it was built with, and the lines below them; undefined when it has none. */
export function recordedHashes(svg: string): { inputs: string; drawing: string; below: string[] } | undefined {
  const lines = svg.split("\n");
  const at = lines.findIndex((line) => hashesLine.test(line));
  const [, inputs, drawing] = at < 0 ? [] : hashesLine.exec(lines[at]!)!;
  return inputs && drawing ? { inputs, drawing, below: lines.slice(at + 1) } : undefined;
}

/** Douglas–Peucker tolerance: a third of a pixel on a 1,000-pixel-wide map (2.8 px a degree). */
const toleranceDegrees = 0.1;
/** The grid every vertex is rounded to: coordinates are written with at most 2 decimals. */
const gridDegrees = 0.01;
/** Islands and lakes smaller than this are left out, unless they are all a country has (0.1 deg² ≈ 1,200 km² at the equator). */
const minRingAreaDeg2 = 0.1;

const unitsPerGrid = Math.round(gridDegrees * unitsPerDegree);
const gridPerDegree = Math.round(1 / gridDegrees);
const coordinateDecimals = Math.round(Math.log10(gridPerDegree));

interface CountryPath {
  countryCode: string;
  /** Rings in grid units of the SVG (x right, y down), each without its closing vertex. */
  rings: Int32Array[];
  /** Area of the rings, in grid units squared: paths are drawn largest first so enclaves stay on top. */
  area: number;
}

export function buildWorldMap(extract: RegionsExtract): { svg: string; countries: number; dropped: string[] } {
  const { coordinates, ringEnds, ringRegions, regions } = extract;

  // One id per distinct vertex: the rings of neighbouring regions meet at identical coordinates.
  const vertexIds = new Map<number, number>();
  const vertexOf = new Int32Array(coordinates.length / 2);
  const vertexX: number[] = [];
  const vertexY: number[] = [];
  for (let i = 0; i < vertexOf.length; i++) {
    const x = coordinates[2 * i]!;
    const y = coordinates[2 * i + 1]!;
    const key = (x + 18_000_000) * 20_000_000 + (y + 9_000_000);
    let id = vertexIds.get(key);
    if (id === undefined) {
      id = vertexX.push(x) - 1;
      vertexY.push(y);
      vertexIds.set(key, id);
    }
    vertexOf[i] = id;
  }
  const vertices = vertexX.length;
  const edgeKey = (a: number, b: number) => (a < b ? a * vertices + b : b * vertices + a);

  // The rings of each country, by index, in the extract's order.
  const countryCodes: string[] = [];
  const countryRings = new Map<string, number[]>();
  for (let r = 0; r < ringEnds.length; r++) {
    const code = regions[ringRegions[r]!]!.countryCode;
    let rings = countryRings.get(code);
    if (!rings) {
      countryRings.set(code, (rings = []));
      countryCodes.push(code);
    }
    rings.push(r);
  }
  countryCodes.sort();

  // Each country's outline: the edges its rings run along an odd number of times.
  const outlineEdges = new Map<string, Map<number, [number, number]>>();
  for (const code of countryCodes) {
    const edges = new Map<number, [number, number]>();
    for (const r of countryRings.get(code)!) {
      for (let i = r === 0 ? 0 : ringEnds[r - 1]!, end = ringEnds[r]! - 1; i < end; i++) {
        const a = vertexOf[i]!;
        const b = vertexOf[i + 1]!;
        if (a === b) continue;
        const key = edgeKey(a, b);
        if (edges.has(key)) edges.delete(key);
        else edges.set(key, [a, b]);
      }
    }
    outlineEdges.set(code, edges);
  }

  // Junctions, where arcs start and end: a vertex with other than two neighbours, or
  // where the countries on its two sides change (a coast meeting a border).
  const junction = new Uint8Array(vertices);
  const degree = new Uint8Array(vertices);
  const owners = new Map<number, string>();
  for (const code of countryCodes) {
    for (const key of outlineEdges.get(code)!.keys()) owners.set(key, owners.has(key) ? `${owners.get(key)} ${code}` : code);
  }
  const ownersAt: Array<string | undefined> = new Array(vertices);
  for (const [key, who] of owners) {
    for (const v of [Math.floor(key / vertices), key % vertices]) {
      degree[v] = Math.min(degree[v]! + 1, 255);
      if (ownersAt[v] === undefined) ownersAt[v] = who;
      else if (ownersAt[v] !== who) junction[v] = 1;
    }
  }
  for (let v = 0; v < vertices; v++) if (degree[v] !== 2) junction[v] = 1;

  // Walk each country's outline edges into closed rings. Every vertex has an even
  // number of them (cancelling pairs keeps parity), so a walk only ends where it began.
  const tracedRings = new Map<string, number[][]>();
  for (const code of countryCodes) {
    const edges = outlineEdges.get(code)!;
    const neighbours = new Map<number, number[]>();
    for (const [a, b] of edges.values()) {
      (neighbours.get(a) ?? neighbours.set(a, []).get(a)!).push(b);
      (neighbours.get(b) ?? neighbours.set(b, []).get(b)!).push(a);
    }
    const used = new Set<number>();
    const rings: number[][] = [];
    for (const [key, [a, b]] of edges) {
      if (used.has(key)) continue;
      used.add(key);
      const ring = [a];
      let at = b;
      while (at !== a) {
        ring.push(at);
        const next = neighbours.get(at)!.find((n) => !used.has(edgeKey(at, n)));
        if (next === undefined) throw new Error(`${code}: the outline does not close at vertex ${at}`);
        used.add(edgeKey(at, next));
        at = next;
      }
      rings.push(ring);
    }
    tracedRings.set(code, rings);
  }

  // A ring with no junction (an island, or an enclave and the hole around it) starts
  // at its lowest vertex, which both sides of a shared loop agree on.
  for (const rings of tracedRings.values()) {
    for (const ring of rings) {
      if (ring.some((v) => junction[v] === 1)) continue;
      let lowest = ring[0]!;
      for (const v of ring) if (vertexX[v]! < vertexX[lowest]! || (vertexX[v] === vertexX[lowest] && vertexY[v]! < vertexY[lowest]!)) lowest = v;
      junction[lowest] = 1;
    }
  }

  // Simplify arc by arc, each arc once: its key is its first directed edge, and the
  // country on the other side finds it under its own first edge, reversed.
  const tolerance = toleranceDegrees * unitsPerDegree;
  const simplified = new Map<number, number[]>();
  const simplifyArc = (arc: number[]): number[] => {
    const forward = arc[0]! * vertices + arc[1]!;
    const known = simplified.get(forward);
    if (known) return known;
    const backward = simplified.get(arc.at(-1)! * vertices + arc.at(-2)!);
    if (backward) return backward.toReversed();
    const kept = douglasPeucker(arc, vertexX, vertexY, tolerance);
    simplified.set(forward, kept);
    return kept;
  };

  const minArea = minRingAreaDeg2 * gridPerDegree * gridPerDegree;
  const paths: CountryPath[] = [];
  const dropped: string[] = [];
  for (const code of countryCodes) {
    const candidates: Array<{ ring: Int32Array; area: number }> = [];
    for (const traced of tracedRings.get(code)!) {
      const start = traced.findIndex((v) => junction[v] === 1);
      const ring = [...traced.slice(start), ...traced.slice(0, start), traced[start]!];
      const kept: number[] = [ring[0]!];
      let arcStart = 0;
      for (let i = 1; i < ring.length; i++) {
        if (junction[ring[i]!] !== 1) continue;
        kept.push(...simplifyArc(ring.slice(arcStart, i + 1)).slice(1));
        arcStart = i;
      }
      const grid = toGrid(kept, vertexX, vertexY);
      if (grid.length >= 6) candidates.push({ ring: grid, area: Math.abs(signedArea(grid)) });
    }
    const largest = Math.max(0, ...candidates.map((c) => c.area));
    // A country's largest ring stays even when small, so every country that still has an area is on the map.
    const rings = candidates.filter((c) => c.area >= minArea || (c.area === largest && c.area > 0));
    if (rings.length === 0) {
      // All of it is within the tolerance of a point (Malta, Liechtenstein): its largest ring, simplified
      // on its own at the grid's resolution, drawn over its neighbours (paths go largest first).
      const finer = tracedRings
        .get(code)!
        .map((traced) => toGrid(douglasPeucker([...traced, traced[0]!], vertexX, vertexY, gridDegrees * unitsPerDegree), vertexX, vertexY))
        .filter((grid) => grid.length >= 6)
        .map((grid) => ({ ring: grid, area: Math.abs(signedArea(grid)) }))
        .filter((c) => c.area > 0)
        .sort((a, b) => b.area - a.area);
      if (finer[0]) rings.push(finer[0]);
    }
    if (rings.length === 0) {
      dropped.push(code);
      continue;
    }
    paths.push({ countryCode: code, rings: rings.map((c) => c.ring), area: rings.reduce((sum, c) => sum + c.area, 0) });
  }
  paths.sort((a, b) => b.area - a.area || (a.countryCode < b.countryCode ? -1 : 1));

  // "--" may not appear inside an XML comment.
  const source = extract.source.replaceAll("--", "–");
  const svg = [
    `<!-- World map in plate carrée: x = longitude + 180, y = 90 - latitude in the viewBox 0 0 360 180,`,
    `     so a point (x, y) is at longitude x - 180, latitude 90 - y. One path per country (ISO 3166-1 alpha-2). -->`,
    `<!-- Data: ${source}; each country's regions merged into one outline, simplified to ${toleranceDegrees}°. -->`,
  ];
  const drawing = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 180" role="img" aria-label="World map" fill-rule="evenodd">`,
    ...paths.map((p) => `<path class="country" data-country="${p.countryCode}" d="${pathData(p.rings)}"><title>${p.countryCode}</title></path>`),
    `</svg>`,
    ``,
  ];
  const generated =
    `<!-- Generated by "bun run build:world-map" (scripts/build-world-map.ts): do not edit by hand. Colours come from the page's CSS.\n` +
    `     Built from inputs sha256 ${worldMapInputsHash()}, the lines below sha256 ${drawingHash(drawing)}. -->`;
  return { svg: [...svg, ...generated.split("\n"), ...drawing].join("\n"), countries: paths.length, dropped };
}

/** The vertices of `arc` (ids) that Douglas–Peucker keeps within `tolerance`; both ends always. */
function douglasPeucker(arc: number[], xs: number[], ys: number[], tolerance: number): number[] {
  const keep = new Uint8Array(arc.length);
  keep[0] = keep[arc.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, arc.length - 1]];
  const limit = tolerance * tolerance;
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    let farthest = -1;
    let farthestDistance = limit;
    for (let i = first + 1; i < last; i++) {
      const d = squaredDistanceToSegment(xs, ys, arc[first]!, arc[last]!, arc[i]!);
      if (d > farthestDistance) {
        farthest = i;
        farthestDistance = d;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push([first, farthest], [farthest, last]);
  }
  return arc.filter((_, i) => keep[i] === 1);
}

function squaredDistanceToSegment(xs: number[], ys: number[], a: number, b: number, p: number): number {
  const ax = xs[a]!,
    ay = ys[a]!;
  const dx = xs[b]! - ax,
    dy = ys[b]! - ay;
  const px = xs[p]! - ax,
    py = ys[p]! - ay;
  const length = dx * dx + dy * dy;
  // A closed arc starts and ends at one vertex: then the distance is to that point.
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / length));
  const ex = px - t * dx,
    ey = py - t * dy;
  return ex * ex + ey * ey;
}

/** A ring of vertex ids (closed) as SVG grid coordinates x0, y0, x1, y1, …, repeats and the closing vertex dropped. */
function toGrid(ring: number[], xs: number[], ys: number[]): Int32Array {
  const out: number[] = [];
  for (const v of ring) {
    const x = Math.round(xs[v]! / unitsPerGrid) + 180 * gridPerDegree;
    const y = 90 * gridPerDegree - Math.round(ys[v]! / unitsPerGrid);
    if (out.length > 0 && out.at(-2) === x && out.at(-1) === y) continue;
    out.push(x, y);
  }
  if (out.length > 2 && out[0] === out.at(-2) && out[1] === out.at(-1)) out.length -= 2;
  return Int32Array.from(out);
}

function signedArea(ring: Int32Array): number {
  let twice = 0;
  for (let i = 0, n = ring.length; i < n; i += 2) {
    const j = (i + 2) % n;
    twice += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!;
  }
  return twice / 2;
}

/** `M x y` then relative `l` steps, each ring closed with `z`: steps of 0.01 are shorter to write than positions. */
function pathData(rings: Int32Array[]): string {
  let d = "";
  for (const ring of rings) {
    d += `M${number(ring[0]!)} ${number(ring[1]!)}l`;
    for (let i = 2; i < ring.length; i += 2) {
      const dx = number(ring[i]! - ring[i - 2]!);
      const dy = number(ring[i + 1]! - ring[i - 1]!);
      d += `${i > 2 && !dx.startsWith("-") ? " " : ""}${dx}${dy.startsWith("-") ? "" : " "}${dy}`;
    }
    d += "z";
  }
  return d;
}

/** Grid units as degrees with at most coordinateDecimals decimals, no trailing zeros, no leading zero: 150 → "1.5", −5 → "-.05". */
function number(units: number): string {
  const sign = units < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(units) / gridPerDegree);
  const fraction = (Math.abs(units) % gridPerDegree).toString().padStart(coordinateDecimals, "0").replace(/0+$/, "");
  return `${sign}${whole === 0 && fraction !== "" ? "" : whole}${fraction === "" ? "" : `.${fraction}`}`;
}

if (import.meta.main) {
  const output = process.argv[2] ?? worldMapPath;
  const started = performance.now();
  const { svg, countries, dropped } = buildWorldMap(readRegionsExtract());
  await Bun.write(output, svg);
  const raw = Buffer.byteLength(svg);
  const gzipped = Bun.gzipSync(svg, { level: 9 }).length;
  console.log(
    `${countries} countries → ${output} (${(raw / 1024).toFixed(0)} KB, ${(gzipped / 1024).toFixed(0)} KB gzipped) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (dropped.length > 0 ? `; too small to draw: ${dropped.join(" ")}` : ""),
  );
}
