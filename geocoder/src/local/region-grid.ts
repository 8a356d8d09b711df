import { lineCutsSquare, onSegment, orientation, queryLeftOf, squaredDistanceToSegment, vertexLeftOfWalk } from "./plane-geometry.ts";
import { unitsPerDegree, type Region, type RegionsExtract } from "./regions-extract.ts";

/** A cell centre or a point in no region: the sea, mostly. */
const noRegion = -1;

const lonSpan = 360 * unitsPerDegree;
const latSpan = 180 * unitsPerDegree;
const kmPerDegree = 111.195;

/**
 * Which region's polygons hold a point, in a fraction of a microsecond for
 * most points, with 1.3 million vertices.
 *
 * The globe is cut into cells of `cellDegrees` in longitude and latitude.
 * Each cell keeps the region at its centre (found once, at build, by one
 * scanline per row of cells) and the polygon edges that cross it. A query
 * walks the straight line from its cell's centre to the point: each edge it
 * crosses flips the point in or out of that edge's region. A cell away from
 * every border has no edges and answers from its centre alone; a coastal cell
 * has a few dozen edges to test, never the whole polygon.
 *
 * Side-of-line tests are exact, ties included (plane-geometry.ts). Regions
 * are even-odd: holes are rings of their region, and the border between two
 * parts of one region flips it twice, i.e. not at all.
 *
 * Polygons are taken as drawn in longitude/latitude, as Natural Earth draws
 * them: split at ±180° (so +180° is looked up as −180°), and reaching the
 * poles along their edge (so ±90° is looked up a metre short of it).
 */
export class RegionGrid {
  readonly regions: readonly Region[];
  /** Where the polygons came from, as the extract says. */
  readonly source: string;
  private readonly columns: number;
  private readonly rows: number;
  private readonly cellUnits: number;
  /** Region at each cell's reference point, or noRegion. Cell = row × columns + column. */
  private readonly referenceRegion: Int16Array;
  /**
   * A cell's reference point is its centre, unless an edge runs exactly
   * through the centre: then a point beside it, kept here. (On an edge, the
   * scanline's and the walked line's tie-breaks could disagree.)
   */
  private readonly movedReferences = new Map<number, readonly [x: number, y: number]>();
  /** Edges of cell c are cellEdges[cellStart[c] … cellStart[c + 1]); an edge is the number of its first vertex. */
  private readonly cellStart: Uint32Array;
  private readonly cellEdges: Uint32Array;
  private readonly cellEdgeRegions: Uint16Array;
  private readonly xy: Int32Array;
  /** Scratch for one query: the regions flipped so far and how often. */
  private readonly flipped: Int32Array;
  private readonly flips: Uint32Array;

  constructor(extract: RegionsExtract, cellDegrees = 0.25) {
    this.cellUnits = Math.round(cellDegrees * unitsPerDegree);
    this.columns = Math.ceil(lonSpan / this.cellUnits);
    this.rows = Math.ceil(latSpan / this.cellUnits);
    if (extract.regions.length > 0x7fff) throw new Error(`RegionGrid: ${extract.regions.length} regions, at most 32767`);
    this.regions = extract.regions;
    this.source = extract.source;
    this.xy = extract.coordinates;
    const cells = this.columns * this.rows;

    // Two passes over the edges: count each cell's edges, then place them.
    const counts = new Uint32Array(cells);
    this.forEachEdgeCell(extract, (cell) => counts[cell]!++);
    this.cellStart = new Uint32Array(cells + 1);
    let widest = 0;
    for (let c = 0; c < cells; c++) {
      this.cellStart[c + 1] = this.cellStart[c]! + counts[c]!;
      widest = Math.max(widest, counts[c]!);
    }
    this.cellEdges = new Uint32Array(this.cellStart[cells]!);
    this.cellEdgeRegions = new Uint16Array(this.cellStart[cells]!);
    const placed = counts.fill(0);
    this.forEachEdgeCell(extract, (cell, edge, region) => {
      const at = this.cellStart[cell]! + placed[cell]!++;
      this.cellEdges[at] = edge;
      this.cellEdgeRegions[at] = region;
    });

    this.referenceRegion = new Int16Array(cells).fill(noRegion);
    this.findCentreRegions(extract.regions.length);
    this.moveReferencesOffEdges();
    this.flipped = new Int32Array(widest);
    this.flips = new Uint32Array(widest);
  }

  /** The region whose polygons hold the point; undefined at sea. */
  regionAt(latitude: number, longitude: number): Region | undefined {
    const region = this.regionNumberAt(latitude, longitude);
    return region === noRegion ? undefined : this.regions[region];
  }

  /**
   * The region whose border passes nearest the point, if within `maxKm`: for
   * a point just off a coast, or on a shore that the polygons' 1:10m
   * coastline leaves out. Distances are measured in a plane scaled to the
   * point's latitude, good to a fraction of a percent over a few tens of km.
   */
  nearestRegion(latitude: number, longitude: number, maxKm: number): Region | undefined {
    const { x, y, column, row } = this.locate(latitude, longitude);
    const kmPerUnit = kmPerDegree / unitsPerDegree;
    const xScale = Math.max(Math.cos(latitude * (Math.PI / 180)), 1e-6);
    const reachRows = Math.ceil(maxKm / (this.cellUnits * kmPerUnit));
    const reachColumns = Math.min(this.columns >> 1, Math.ceil(maxKm / (this.cellUnits * kmPerUnit * xScale)));
    let best = (maxKm / kmPerUnit) ** 2;
    let found = noRegion;
    const xy = this.xy;
    for (let r = Math.max(0, row - reachRows); r <= Math.min(this.rows - 1, row + reachRows); r++) {
      for (let dc = -reachColumns; dc <= reachColumns; dc++) {
        // Columns wrap around the antimeridian; rows stop at the poles.
        const c = (((column + dc) % this.columns) + this.columns) % this.columns;
        const cell = r * this.columns + c;
        // An edge drawn near +180° is near a point at −180°: shift it by a turn when its cell wrapped.
        const shift = column + dc < 0 ? -lonSpan : column + dc >= this.columns ? lonSpan : 0;
        for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
          const a = this.cellEdges[i]! * 2;
          const squared = squaredDistanceToSegment((x - xy[a]! - shift) * xScale, y - xy[a + 1]!, (x - xy[a + 2]! - shift) * xScale, y - xy[a + 3]!);
          if (squared < best) {
            best = squared;
            found = this.cellEdgeRegions[i]!;
          }
        }
      }
    }
    return found === noRegion ? undefined : this.regions[found];
  }

  /** A point in grid units (+180° as −180°, the poles a unit short of ±90°) and its cell. */
  private locate(latitude: number, longitude: number): { x: number; y: number; column: number; row: number } {
    let x = Math.round(longitude * unitsPerDegree);
    if (x >= lonSpan / 2) x -= lonSpan;
    const y = Math.min(latSpan / 2 - 1, Math.max(1 - latSpan / 2, Math.round(latitude * unitsPerDegree)));
    return { x, y, column: this.columnOf(x), row: this.rowOf(y) };
  }

  private regionNumberAt(latitude: number, longitude: number): number {
    const { x, y, column, row } = this.locate(latitude, longitude);
    const cell = row * this.columns + column;
    const referenceRegion = this.referenceRegion[cell]!;
    const start = this.cellStart[cell]!;
    const end = this.cellStart[cell + 1]!;
    if (start === end) return referenceRegion;

    const moved = this.movedReferences.size === 0 ? undefined : this.movedReferences.get(cell);
    const cx = moved ? moved[0] : this.centreX(column);
    const cy = moved ? moved[1] : this.centreY(row);
    const xy = this.xy;
    let distinct = 0;
    for (let i = start; i < end; i++) {
      const a = this.cellEdges[i]! * 2;
      const ax = xy[a]!,
        ay = xy[a + 1]!,
        bx = xy[a + 2]!,
        by = xy[a + 3]!;
      // The edge's ends on either side of the walked line, and the line's ends on either side of the edge.
      if (vertexLeftOfWalk(cx, cy, x, y, ax, ay) === vertexLeftOfWalk(cx, cy, x, y, bx, by)) continue;
      const reference = orientation(ax, ay, bx, by, cx, cy);
      // A reference in line with the edge (never on it) could meet its line only where it stands, off the edge.
      if (reference === 0 || reference > 0 === queryLeftOf(ax, ay, bx, by, x, y)) continue;
      const region = this.cellEdgeRegions[i]!;
      let k = 0;
      while (k < distinct && this.flipped[k] !== region) k++;
      if (k === distinct) {
        this.flipped[distinct] = region;
        this.flips[distinct++] = 0;
      }
      this.flips[k]!++;
    }
    // The reference's region holds the point unless it was flipped out; another holds it if it was flipped in.
    let inside = referenceRegion;
    for (let k = 0; k < distinct; k++) {
      if (this.flips[k]! % 2 === 0) continue;
      if (this.flipped[k] === referenceRegion) {
        if (inside === referenceRegion) inside = noRegion;
      } else {
        inside = this.flipped[k]!;
      }
    }
    return inside;
  }

  private centreX(column: number): number {
    return column * this.cellUnits + (this.cellUnits >> 1) - lonSpan / 2;
  }

  private centreY(row: number): number {
    return row * this.cellUnits + (this.cellUnits >> 1) - latSpan / 2;
  }

  /** Calls `visit` for every cell an edge passes through (its bounding box's cells that the edge's line cuts). */
  private forEachEdgeCell(extract: RegionsExtract, visit: (cell: number, edge: number, region: number) => void): void {
    const { ringEnds, ringRegions } = extract;
    const xy = this.xy;
    const size = this.cellUnits;
    let first = 0;
    for (let ring = 0; ring < ringEnds.length; ring++) {
      const region = ringRegions[ring]!;
      const end = ringEnds[ring]!;
      for (let edge = first; edge < end - 1; edge++) {
        const ax = xy[edge * 2]!,
          ay = xy[edge * 2 + 1]!,
          bx = xy[edge * 2 + 2]!,
          by = xy[edge * 2 + 3]!;
        const c0 = this.columnOf(Math.min(ax, bx)),
          c1 = this.columnOf(Math.max(ax, bx));
        const r0 = this.rowOf(Math.min(ay, by)),
          r1 = this.rowOf(Math.max(ay, by));
        for (let r = r0; r <= r1; r++) {
          for (let c = c0; c <= c1; c++) {
            if ((c1 > c0 || r1 > r0) && !lineCutsSquare(ax, ay, bx, by, c * size - lonSpan / 2, r * size - latSpan / 2, size)) continue;
            visit(r * this.columns + c, edge, region);
          }
        }
      }
      first = end;
    }
  }

  private columnOf(x: number): number {
    return Math.min(this.columns - 1, Math.max(0, Math.floor((x + lonSpan / 2) / this.cellUnits)));
  }

  private rowOf(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y + latSpan / 2) / this.cellUnits)));
  }

  /**
   * The region at every cell centre: along each row's centre line, the edges
   * that cross it, sorted by longitude; between crossings, the regions
   * crossed an odd number of times hold the line.
   */
  private findCentreRegions(regionCount: number): void {
    const parity = new Uint8Array(regionCount);
    const xs: number[] = [];
    const regionsAt: number[] = [];
    const order: number[] = [];
    for (let row = 0; row < this.rows; row++) {
      const y = this.centreY(row);
      xs.length = 0;
      regionsAt.length = 0;
      for (let column = 0; column < this.columns; column++) {
        const cell = row * this.columns + column;
        for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
          const x = this.crossingInColumn(i, column, y);
          if (Number.isNaN(x)) continue;
          xs.push(x);
          regionsAt.push(this.cellEdgeRegions[i]!);
        }
      }
      order.length = 0;
      for (let k = 0; k < xs.length; k++) order.push(k);
      order.sort((p, q) => xs[p]! - xs[q]!);
      const odd: number[] = [];
      let next = 0;
      for (let column = 0; column < this.columns; column++) {
        const cx = this.centreX(column);
        while (next < order.length && xs[order[next]!]! < cx) {
          const region = regionsAt[order[next++]!]!;
          parity[region] = parity[region]! ^ 1;
          if (parity[region]) odd.push(region);
          else odd.splice(odd.indexOf(region), 1);
        }
        if (odd.length > 0) this.referenceRegion[row * this.columns + column] = odd[odd.length - 1]!;
      }
      for (const region of odd) parity[region] = 0;
    }
  }

  /**
   * Where the edge at `cellEdges[i]` crosses the horizontal line at y, if it
   * does (half-open in latitude, so a vertex on the line counts for one of
   * its two edges) and if that is in this column: an edge is listed in every
   * cell it passes through, but must be counted once. NaN otherwise.
   */
  private crossingInColumn(i: number, column: number, y: number): number {
    const a = this.cellEdges[i]! * 2;
    const ax = this.xy[a]!,
      ay = this.xy[a + 1]!,
      bx = this.xy[a + 2]!,
      by = this.xy[a + 3]!;
    if (ay <= y === by <= y) return Number.NaN;
    const x = ax + ((y - ay) * (bx - ax)) / (by - ay);
    return this.columnOf(x) === column ? x : Number.NaN;
  }

  /** Finds the cells whose centre lies on one of their edges, and gives each a reference point beside it. */
  private moveReferencesOffEdges(): void {
    for (let row = 0; row < this.rows; row++) {
      for (let column = 0; column < this.columns; column++) {
        const cell = row * this.columns + column;
        const x = this.centreX(column);
        const y = this.centreY(row);
        if (!this.onAnEdgeOf(cell, x, y)) continue;
        const [movedX, movedY] = this.pointOffEdgesNear(cell, x, y);
        this.movedReferences.set(cell, [movedX, movedY]);
        this.referenceRegion[cell] = this.regionByRayCast(row, movedX, movedY);
      }
    }
  }

  /**
   * A point a few units (1e-5°) from (x, y) on no edge of the cell. Up a
   * vertical line one unit east: an edge that is not itself vertical meets
   * that line in one point at most, so among edges + 1 points one is free.
   */
  private pointOffEdgesNear(cell: number, x: number, y: number): [number, number] {
    const edges = this.cellStart[cell + 1]! - this.cellStart[cell]!;
    for (let dx = 1; ; dx++) {
      for (let dy = 0; dy <= edges; dy++) {
        if (!this.onAnEdgeOf(cell, x + dx, y + dy)) return [x + dx, y + dy];
      }
    }
  }

  private onAnEdgeOf(cell: number, x: number, y: number): boolean {
    const xy = this.xy;
    for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
      const a = this.cellEdges[i]! * 2;
      if (onSegment(xy[a]!, xy[a + 1]!, xy[a + 2]!, xy[a + 3]!, x, y)) return true;
    }
    return false;
  }

  /** The region at one point of a row, by a ray to the west across the row's cells (the scanline's rule, for one point). */
  private regionByRayCast(row: number, x: number, y: number): number {
    const flips = new Map<number, number>();
    const lastColumn = this.columnOf(x);
    for (let column = 0; column <= lastColumn; column++) {
      const cell = row * this.columns + column;
      for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
        if (!(this.crossingInColumn(i, column, y) < x)) continue;
        const region = this.cellEdgeRegions[i]!;
        flips.set(region, (flips.get(region) ?? 0) + 1);
      }
    }
    let inside = noRegion;
    for (const [region, count] of flips) if (count % 2 === 1) inside = region;
    return inside;
  }
}
