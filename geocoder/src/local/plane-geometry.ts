/**
 * Side-of-line tests on integer coordinates (1e-5°, see regions-extract.ts):
 * every product stays far below 2^53, so each answer is exact, and ties are
 * broken by rule instead of by rounding.
 */

/** Twice the signed area of a, b, p: positive when p is left of the line a→b, zero on it. */
export function orientation(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Whether p lies on the segment a–b, ends included. */
export function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return orientation(ax, ay, bx, by, px, py) === 0 && px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
}

/*
 * A query point exactly on an edge, or a vertex exactly on the walked line,
 * is decided as if the query point were (x + ε, y + ε²): a real point just
 * beside it. So a point on a border is in exactly one of the two regions
 * that share it (never in neither), whichever way their rings run, and a
 * vertex on the walked line flips both of its edges or neither.
 */

/** Whether the query point q, moved by (ε, ε²), is left of the line a→b. */
export function queryLeftOf(ax: number, ay: number, bx: number, by: number, qx: number, qy: number): boolean {
  const o = orientation(ax, ay, bx, by, qx, qy);
  if (o !== 0) return o > 0;
  // The orientation then grows as −(by − ay)·ε + (bx − ax)·ε².
  return by !== ay ? by < ay : bx > ax;
}

/** Whether vertex v is left of the line from p to the query point q moved by (ε, ε²). */
export function vertexLeftOfWalk(px: number, py: number, qx: number, qy: number, vx: number, vy: number): boolean {
  const o = orientation(px, py, qx, qy, vx, vy);
  if (o !== 0) return o > 0;
  // The orientation then grows as (vy − py)·ε − (vx − px)·ε².
  return vy !== py ? vy > py : vx < px;
}

/** Whether the line through a and b passes through the square [x, x + size] × [y, y + size], its sides included. */
export function lineCutsSquare(ax: number, ay: number, bx: number, by: number, x: number, y: number, size: number): boolean {
  const side = Math.sign(orientation(ax, ay, bx, by, x, y));
  return (
    side === 0 ||
    side !== Math.sign(orientation(ax, ay, bx, by, x + size, y)) ||
    side !== Math.sign(orientation(ax, ay, bx, by, x, y + size)) ||
    side !== Math.sign(orientation(ax, ay, bx, by, x + size, y + size))
  );
}

/** Squared distance from the origin to the segment between (ax, ay) and (bx, by). */
export function squaredDistanceToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / length));
  const px = ax + t * dx;
  const py = ay + t * dy;
  return px * px + py * py;
}
