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

  /** With weights: the largest weight in the subtree of each node, at the node's position in `order`. */
  private readonly subtreeMaxWeight: Float64Array | undefined;

  /** `weights`: optional, one per point, for `lightest` (a place's reach, say). */
  constructor(
    latitudes: Float64Array,
    longitudes: Float64Array,
    private readonly weights?: Float64Array,
  ) {
    const count = latitudes.length;
    this.xyz = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) writeUnitVector(this.xyz, i * 3, latitudes[i]!, longitudes[i]!);
    this.order = new Uint32Array(count);
    for (let i = 0; i < count; i++) this.order[i] = i;
    this.build(0, count, 0);
    if (weights) {
      this.subtreeMaxWeight = new Float64Array(count);
      this.fillMaxWeight(weights, 0, count);
    }
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
    let best = -1;
    let bestSquared = chordSquaredOf(maxKm);
    this.walk(
      queryOf(latitude, longitude),
      (point, squared) => {
        if (squared <= bestSquared && accept(point)) [best, bestSquared] = [point, squared];
      },
      () => bestSquared,
    );
    return best < 0 ? undefined : { index: best, distanceKm: kmOfChordSquared(bestSquared) };
  }

  /**
   * The accepted point within `maxKm` nearest relative to its weight: lowest
   * km / weight (a place's distance in units of its reach), or undefined.
   * Needs the weights given to the constructor. A subtree is skipped when
   * even its heaviest point, at the nearest the subtree can be, would cost
   * more than the best found so far.
   */
  lightest(latitude: number, longitude: number, maxKm: number, accept: (index: number) => boolean): (Nearest & { cost: number }) | undefined {
    const { weights, subtreeMaxWeight } = this;
    if (!weights || !subtreeMaxWeight) throw new Error("SphereIndex.lightest needs the weights given to the constructor");
    const maxSquared = chordSquaredOf(maxKm);
    let best = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    let bestKm = 0;
    this.walk(
      queryOf(latitude, longitude),
      (point, squared) => {
        if (squared > maxSquared) return;
        const km = kmOfChordSquared(squared);
        const cost = km / weights[point]!;
        if (cost < bestCost && accept(point)) [best, bestCost, bestKm] = [point, cost, km];
      },
      (subtree) => Math.min(maxSquared, chordSquaredOf(bestCost * subtreeMaxWeight[subtree]!)),
    );
    return best < 0 ? undefined : { index: best, distanceKm: bestKm, cost: bestCost };
  }

  /** Calls `visit(index, km)` for every point within `maxKm`, in no particular order. */
  forEachWithin(latitude: number, longitude: number, maxKm: number, visit: (index: number, km: number) => void): void {
    const boundSquared = chordSquaredOf(maxKm);
    this.walk(
      queryOf(latitude, longitude),
      (point, squared) => {
        if (squared <= boundSquared) visit(point, kmOfChordSquared(squared));
      },
      () => boundSquared,
    );
  }

  /**
   * The one traversal: every node's point goes to `visit` (with its squared
   * chord to the query), the side of each split the query is on first; the
   * other side only if its plane is within `farBoundSquared(subtree)`, asked
   * after the near side, so a bound that `visit` tightens prunes at once.
   * `subtree` is the far side's node (its middle position in `order`).
   */
  private walk(
    query: Float64Array,
    visit: (point: number, squared: number) => void,
    farBoundSquared: (subtree: number) => number,
    lo = 0,
    hi = this.order.length,
    axis = 0,
  ): void {
    if (lo >= hi) return;
    const middle = (lo + hi) >>> 1;
    const point = this.order[middle]!;
    const at = point * 3;
    const dx = this.xyz[at]! - query[0]!;
    const dy = this.xyz[at + 1]! - query[1]!;
    const dz = this.xyz[at + 2]! - query[2]!;
    visit(point, dx * dx + dy * dy + dz * dz);
    const split = query[axis]! - this.xyz[at + axis]!;
    const next = (axis + 1) % 3;
    // The far side is at least |split| away (as a chord).
    if (split < 0) {
      this.walk(query, visit, farBoundSquared, lo, middle, next);
      if (middle + 1 < hi && split * split <= farBoundSquared((middle + 1 + hi) >>> 1)) this.walk(query, visit, farBoundSquared, middle + 1, hi, next);
    } else {
      this.walk(query, visit, farBoundSquared, middle + 1, hi, next);
      if (lo < middle && split * split <= farBoundSquared((lo + middle) >>> 1)) this.walk(query, visit, farBoundSquared, lo, middle, next);
    }
  }

  /** The largest weight of each subtree, stored at its node (its middle position); returns the range's. */
  private fillMaxWeight(weights: Float64Array, lo: number, hi: number): number {
    if (lo >= hi) return 0;
    const middle = (lo + hi) >>> 1;
    const max = Math.max(weights[this.order[middle]!]!, this.fillMaxWeight(weights, lo, middle), this.fillMaxWeight(weights, middle + 1, hi));
    this.subtreeMaxWeight![middle] = max;
    return max;
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

function queryOf(latitude: number, longitude: number): Float64Array {
  const query = new Float64Array(3);
  writeUnitVector(query, 0, latitude, longitude);
  return query;
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
