const earthRadiusKm = 6371.0088;
const radiansPerDegree = Math.PI / 180;

/** The nearest point found by SphereIndex: its number in the input and its great-circle distance. */
export interface Nearest {
  index: number;
  distanceKm: number;
}

/**
 * A static k-d tree over points on the sphere, stored as 3-D unit vectors.
 * Straight-line (chord) distance between unit vectors grows with great-circle
 * distance, so the nearest by chord is the nearest on the Earth: no special
 * case at the antimeridian (179.9° and -179.9° are neighbours) nor at the
 * poles, unlike a tree or grid over raw latitude/longitude.
 * Built once (O(n log n)); a query visits O(log n) nodes.
 */
export class SphereIndex {
  /** x, y, z of point i at 3i, 3i+1, 3i+2. */
  private readonly xyz: Float64Array;
  /** Point numbers in tree order: the node of range [lo, hi) is its middle, split on axis depth % 3. */
  private readonly order: Uint32Array;

  constructor(latitudes: Float64Array, longitudes: Float64Array) {
    const count = latitudes.length;
    this.xyz = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) writeUnitVector(this.xyz, i * 3, latitudes[i]!, longitudes[i]!);
    this.order = new Uint32Array(count);
    for (let i = 0; i < count; i++) this.order[i] = i;
    this.build(0, count, 0);
  }

  get size(): number {
    return this.order.length;
  }

  /**
   * The nearest point within `maxKm` for which `accept` holds, or undefined.
   * Points refused by `accept` are passed over but the search goes on, so
   * "nearest place in the same country" needs no second pass.
   */
  nearest(latitude: number, longitude: number, maxKm: number, accept: (index: number) => boolean = () => true): Nearest | undefined {
    const query = new Float64Array(3);
    writeUnitVector(query, 0, latitude, longitude);
    const search = { best: -1, bestSquared: chordSquaredOf(maxKm) };
    this.search(query, 0, this.order.length, 0, accept, search);
    if (search.best < 0) return undefined;
    return { index: search.best, distanceKm: kmOfChordSquared(search.bestSquared) };
  }

  private search(
    query: Float64Array,
    lo: number,
    hi: number,
    axis: number,
    accept: (index: number) => boolean,
    state: { best: number; bestSquared: number },
  ): void {
    if (lo >= hi) return;
    const middle = (lo + hi) >>> 1;
    const point = this.order[middle]!;
    const at = point * 3;
    const dx = this.xyz[at]! - query[0]!;
    const dy = this.xyz[at + 1]! - query[1]!;
    const dz = this.xyz[at + 2]! - query[2]!;
    const squared = dx * dx + dy * dy + dz * dz;
    if (squared <= state.bestSquared && accept(point)) {
      state.best = point;
      state.bestSquared = squared;
    }
    const split = query[axis]! - this.xyz[at + axis]!;
    const next = (axis + 1) % 3;
    // The side the query is on first; the other only if the splitting plane is nearer than the best so far.
    if (split < 0) {
      this.search(query, lo, middle, next, accept, state);
      if (split * split <= state.bestSquared) this.search(query, middle + 1, hi, next, accept, state);
    } else {
      this.search(query, middle + 1, hi, next, accept, state);
      if (split * split <= state.bestSquared) this.search(query, lo, middle, next, accept, state);
    }
  }

  private build(lo: number, hi: number, axis: number): void {
    if (hi - lo <= 1) return;
    const middle = (lo + hi) >>> 1;
    this.select(lo, hi - 1, middle, axis);
    const next = (axis + 1) % 3;
    this.build(lo, middle, next);
    this.build(middle + 1, hi, next);
  }

  /** Quickselect: puts the k-th smallest on `axis` at k, smaller ones before, larger after. */
  private select(left: number, right: number, k: number, axis: number): void {
    const key = (position: number) => this.xyz[this.order[position]! * 3 + axis]!;
    while (right > left) {
      this.swap(k, (left + right) >>> 1);
      const pivot = key(k);
      this.swap(k, right);
      let store = left;
      for (let i = left; i < right; i++) {
        if (key(i) < pivot) this.swap(i, store++);
      }
      this.swap(store, right);
      if (store === k) return;
      if (store < k) left = store + 1;
      else right = store - 1;
    }
  }

  private swap(a: number, b: number): void {
    const held = this.order[a]!;
    this.order[a] = this.order[b]!;
    this.order[b] = held;
  }
}

function writeUnitVector(target: Float64Array, at: number, latitude: number, longitude: number): void {
  const phi = latitude * radiansPerDegree;
  const lambda = longitude * radiansPerDegree;
  const cosPhi = Math.cos(phi);
  target[at] = cosPhi * Math.cos(lambda);
  target[at + 1] = cosPhi * Math.sin(lambda);
  target[at + 2] = Math.sin(phi);
}

/** Squared chord of a great-circle distance: chord = 2 sin(d / 2R). */
function chordSquaredOf(km: number): number {
  const chord = 2 * Math.sin(Math.min(km / earthRadiusKm, Math.PI) / 2);
  return chord * chord;
}

function kmOfChordSquared(squared: number): number {
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(squared) / 2));
}
