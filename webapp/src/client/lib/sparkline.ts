import { s } from "./dom.ts";
import { plural } from "./format.ts";

const width = 100;
const height = 28;
// Room for the stroke, so the top and bottom of the line are not cut off.
const margin = 2;

/**
 * A small line of counts (visits per day, oldest first) as an SVG image,
 * labelled with what it sums to ("14 days: 3 visits") for screen readers.
 * All zeros is a flat line along the bottom.
 */
export function sparkline(counts: readonly number[]): SVGSVGElement {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const label = `${plural(counts.length, "day")}: ${plural(total, "visit")}`;
  const highest = Math.max(1, ...counts);
  const step = counts.length > 1 ? width / (counts.length - 1) : 0;
  const points = counts.map((n, i) => `${round(i * step)},${round(height - margin - (n / highest) * (height - 2 * margin))}`);
  // One point draws nothing: repeat it across the width.
  if (points.length === 1) points.push(`${width},${points[0]!.split(",")[1]}`);
  return s(
    "svg",
    { class: "sparkline", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", role: "img", "aria-label": label, focusable: "false" },
    s("title", {}, label),
    s("polyline", { points: points.join(" "), "vector-effect": "non-scaling-stroke" }),
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
