import type { BarSize, VisitBucket } from "./bar-sizes.ts";
import { h, s } from "./dom.ts";
import { formatCount, plural } from "./format.ts";

export interface VisitsChart {
  /** Stacked bars, humans under bots; its accessible name sums the series up. */
  svg: SVGSVGElement;
  /** The same numbers as a table, for screen readers (visually hidden): every bucket that had visits. */
  table: HTMLElement;
}

const height = 180;
const margin = { top: 10, right: 8, bottom: 24 };

// Hours in the reader's time zone; days, weeks and months are UTC ones, as the API counts days.
const hourLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const dayLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" });

/** A bar's start as the axis and the table name it: "Mar 3, 14:00", "Mar 3" (a day, or the Monday of a week), "Mar 2026". */
export function bucketLabel(t: string, size: BarSize): string {
  const labels: Record<BarSize, Intl.DateTimeFormat> = { hour: hourLabel, day: dayLabel, week: dayLabel, month: monthLabel };
  return labels[size].format(new Date(t));
}

/** A bar's tooltip names the whole bucket: "week of Mar 3". */
const bucketName = (t: string, size: BarSize) => (size === "week" ? `Week of ${bucketLabel(t, size)}` : bucketLabel(t, size));

/** The table's first column, saying which clock the buckets keep. */
const columnNames: Record<BarSize, string> = { hour: "Hour", day: "Day (UTC)", week: "Week (UTC, from Monday)", month: "Month (UTC)" };

/** Whole-number gridlines for a largest value of `max`: 0 and up to three steps of 1, 2 or 5 × 10ⁿ above it. */
function gridlines(max: number): number[] {
  const rough = Math.max(max, 1) / 3;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((m) => m >= rough) ?? 10 * power);
  const steps = Math.max(1, Math.ceil(max / step));
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** Where things go in a chart `width` wide whose highest gridline is `top`. */
interface Plot {
  left: number;
  width: number;
  height: number;
  /** The width each bucket takes, its bar in the middle. */
  slot: number;
  y(value: number): number;
}

function plotOf(width: number, top: number, buckets: number): Plot {
  const left = 10 + 7 * formatCount(top).length;
  const plotWidth = Math.max(width - left - margin.right, 10);
  const plotHeight = height - margin.top - margin.bottom;
  return {
    left,
    width: plotWidth,
    height: plotHeight,
    slot: plotWidth / Math.max(buckets, 1),
    y: (value) => margin.top + plotHeight - (value / top) * plotHeight,
  };
}

type Totals = Pick<VisitBucket, "visits" | "humans" | "bots">;

const totalOf = (series: readonly VisitBucket[]): Totals =>
  series.reduce((sum, b) => ({ visits: sum.visits + b.visits, humans: sum.humans + b.humans, bots: sum.bots + b.bots }), { visits: 0, humans: 0, bots: 0 });

/**
 * Visits over time as an SVG `width` user units wide (the width it is shown
 * at, so its text keeps its size), colours from the stylesheet (.humans,
 * .bots), one bar per bucket of `size`; `subject` names what is counted
 * ("Visits from Germany"). The SVG says its bar size (`data-bar-size`); each
 * bar is a `g.bar` with `data-t`, `data-visits`, `data-humans` and
 * `data-bots`, and a tooltip.
 */
export function visitsChart(series: readonly VisitBucket[], size: BarSize, width: number, subject = "Visits"): VisitsChart {
  const total = totalOf(series);
  const ticks = gridlines(Math.max(0, ...series.map((b) => b.visits)));
  const plot = plotOf(width, ticks[ticks.length - 1]!, series.length);
  const summary = chartSummary(series, size, total, subject);
  const svg = s(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, "data-total": total.visits, "data-bar-size": size },
    ticks.map((tick) =>
      s(
        "g",
        {},
        s("line", { class: "axis", x1: plot.left, x2: plot.left + plot.width, y1: plot.y(tick), y2: plot.y(tick) }),
        s("text", { x: plot.left - 6, y: plot.y(tick) + 3.5, "text-anchor": "end" }, formatCount(tick)),
      ),
    ),
    series.map((bucket, i) => bar(bucket, i, size, plot)),
    axisLabels(series, size, plot, width),
    total.visits === 0 &&
      s("text", { class: "chart-empty", x: plot.left + plot.width / 2, y: margin.top + plot.height / 2, "text-anchor": "middle" }, "No visits in this range"),
  );
  return { svg, table: chartTable(series, size, subject, summary) };
}

/** A bucket's stacked bar, humans under bots; nothing for a bucket without visits. */
function bar(bucket: VisitBucket, i: number, size: BarSize, plot: Plot): SVGGElement | null {
  if (bucket.visits === 0) return null;
  const barWidth = plot.slot > 4 ? plot.slot * 0.78 : plot.slot;
  const x = plot.left + i * plot.slot + (plot.slot - barWidth) / 2;
  const humansTop = plot.y(bucket.humans);
  const allTop = plot.y(bucket.humans + bucket.bots);
  return s(
    "g",
    { class: "bar", "data-t": bucket.t, "data-visits": bucket.visits, "data-humans": bucket.humans, "data-bots": bucket.bots },
    s("title", {}, `${bucketName(bucket.t, size)}: ${plural(bucket.visits, "visit")} (${plural(bucket.humans, "human")}, ${plural(bucket.bots, "bot")})`),
    bucket.humans > 0 && s("rect", { class: "humans", x, width: barWidth, y: humansTop, height: plot.y(0) - humansTop }),
    bucket.bots > 0 && s("rect", { class: "bots", x, width: barWidth, y: allTop, height: humansTop - allTop }),
  );
}

/** The first and last buckets named under the axis, and the middle one where there is room. */
function axisLabels(series: readonly VisitBucket[], size: BarSize, plot: Plot, width: number): SVGTextElement[] {
  const last = series.length - 1;
  type Anchor = "start" | "middle" | "end";
  const named: [number, Anchor][] = [];
  if (series.length === 1) named.push([0, "middle"]);
  else if (series.length > 1) {
    named.push([0, "start"]);
    if (width >= 480 && series.length >= 3) named.push([Math.floor(last / 2), "middle"]);
    named.push([last, "end"]);
  }
  return named.map(([i, anchor]) =>
    s(
      "text",
      { x: plot.left + i * plot.slot + { start: 0, middle: plot.slot / 2, end: plot.slot }[anchor], y: height - 6, "text-anchor": anchor },
      bucketLabel(series[i]!.t, size),
    ),
  );
}

/** The chart in one sentence: its span, its sum and its busiest bucket. */
function chartSummary(series: readonly VisitBucket[], size: BarSize, total: Totals, subject: string): string {
  const last = series.length - 1;
  const span = series.length > 0 ? ` from ${bucketLabel(series[0]!.t, size)} to ${bucketLabel(series[last]!.t, size)}` : "";
  if (total.visits === 0) return `${subject} by ${size}${span}: none.`;
  const busiest = series.reduce((best, b) => (b.visits > best.visits ? b : best));
  return (
    `${subject} by ${size}${span}: ${plural(total.visits, "visit")} in all (${plural(total.humans, "human")}, ${plural(total.bots, "bot")}); ` +
    `the busiest ${size}, ${bucketLabel(busiest.t, size)}, had ${plural(busiest.visits, "visit")}.`
  );
}

/** The same numbers as a table, for screen readers (visually hidden): every bucket that had visits. */
function chartTable(series: readonly VisitBucket[], size: BarSize, subject: string, summary: string): HTMLElement {
  const rows = series.filter((b) => b.visits > 0);
  if (rows.length === 0) return h("div", { class: "visually-hidden" }, h("p", {}, summary));
  const column = (name: string) => h("th", { scope: "col" }, name);
  return h(
    "div",
    { class: "visually-hidden" },
    h(
      "table",
      {},
      h("caption", {}, `${subject} by ${size} (${size}s without visits are left out)`),
      h("thead", {}, h("tr", {}, column(columnNames[size]), column("Humans"), column("Bots"), column("Visits"))),
      h(
        "tbody",
        {},
        rows.map((b) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, bucketLabel(b.t, size)),
            h("td", {}, formatCount(b.humans)),
            h("td", {}, formatCount(b.bots)),
            h("td", {}, formatCount(b.visits)),
          ),
        ),
      ),
    ),
  );
}
