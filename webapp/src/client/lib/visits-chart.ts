import { h, s } from "./dom.ts";
import { formatCount, plural } from "./format.ts";

export type Granularity = "hour" | "day";

/** One bucket of the visits API's series: its start, and its visits split into humans and bots. */
export interface VisitBucket {
  t: string;
  visits: number;
  humans: number;
  bots: number;
}

export interface VisitsChart {
  /** Stacked bars, humans under bots; its accessible name sums the series up. */
  svg: SVGSVGElement;
  /** The same numbers as a table, for screen readers (visually hidden): every bucket that had visits. */
  table: HTMLElement;
}

const height = 180;
const margin = { top: 10, right: 8, bottom: 24 };

// Hours in the reader's time zone; days are UTC days, as the API counts them.
const hourLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const dayLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

export function bucketLabel(t: string, granularity: Granularity): string {
  return (granularity === "hour" ? hourLabel : dayLabel).format(new Date(t));
}

/** Whole-number gridlines for a largest value of `max`: 0 and up to three steps of 1, 2 or 5 × 10ⁿ above it. */
function gridlines(max: number): number[] {
  const rough = Math.max(max, 1) / 3;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((m) => m >= rough) ?? 10 * power);
  const steps = Math.max(1, Math.ceil(max / step));
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/**
 * Visits over time as an SVG `width` user units wide (the width it is shown
 * at, so its text keeps its size), colours from the stylesheet (.humans,
 * .bots); `subject` names what is counted ("Visits from Germany"). Each bar is a `g.bar` with `data-t`, `data-visits`, `data-humans`
 * and `data-bots`, and a tooltip.
 */
export function visitsChart(series: readonly VisitBucket[], granularity: Granularity, width: number, subject = "Visits"): VisitsChart {
  const unit = granularity;
  const total = series.reduce((sum, b) => ({ visits: sum.visits + b.visits, humans: sum.humans + b.humans, bots: sum.bots + b.bots }), {
    visits: 0,
    humans: 0,
    bots: 0,
  });
  const ticks = gridlines(Math.max(0, ...series.map((b) => b.visits)));
  const top = ticks[ticks.length - 1]!;
  const left = 10 + 7 * formatCount(top).length;
  const plotWidth = Math.max(width - left - margin.right, 10);
  const plotHeight = height - margin.top - margin.bottom;
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(series.length, 1);
  const barWidth = slot > 4 ? slot * 0.78 : slot;

  const grid = ticks.map((tick) =>
    s(
      "g",
      {},
      s("line", { class: "axis", x1: left, x2: left + plotWidth, y1: y(tick), y2: y(tick) }),
      s("text", { x: left - 6, y: y(tick) + 3.5, "text-anchor": "end" }, formatCount(tick)),
    ),
  );

  const bars = series.flatMap((bucket, i) => {
    if (bucket.visits === 0) return [];
    const x = left + i * slot + (slot - barWidth) / 2;
    const humansTop = y(bucket.humans);
    return [
      s(
        "g",
        { class: "bar", "data-t": bucket.t, "data-visits": bucket.visits, "data-humans": bucket.humans, "data-bots": bucket.bots },
        s(
          "title",
          {},
          `${bucketLabel(bucket.t, granularity)}: ${plural(bucket.visits, "visit")} (${plural(bucket.humans, "human")}, ${plural(bucket.bots, "bot")})`,
        ),
        bucket.humans > 0 && s("rect", { class: "humans", x, width: barWidth, y: humansTop, height: y(0) - humansTop }),
        bucket.bots > 0 &&
          s("rect", { class: "bots", x, width: barWidth, y: y(bucket.humans + bucket.bots), height: humansTop - y(bucket.humans + bucket.bots) }),
      ),
    ];
  });

  // The first and last buckets are named under the axis, and the middle one where there is room.
  const last = series.length - 1;
  type Anchor = "start" | "middle" | "end";
  const named: [number, Anchor][] = [];
  if (series.length === 1) named.push([0, "middle"]);
  else if (series.length > 1) {
    named.push([0, "start"]);
    if (width >= 480 && series.length >= 3) named.push([Math.floor(last / 2), "middle"]);
    named.push([last, "end"]);
  }
  const labels = named.map(([i, anchor]) =>
    s(
      "text",
      { x: left + i * slot + { start: 0, middle: slot / 2, end: slot }[anchor], y: height - 6, "text-anchor": anchor },
      bucketLabel(series[i]!.t, granularity),
    ),
  );

  const span = series.length > 0 ? ` from ${bucketLabel(series[0]!.t, granularity)} to ${bucketLabel(series[last]!.t, granularity)}` : "";
  const busiest = series.reduce<VisitBucket | null>((best, b) => (b.visits > (best?.visits ?? 0) ? b : best), null);
  const summary =
    total.visits === 0
      ? `${subject} by ${unit}${span}: none.`
      : `${subject} by ${unit}${span}: ${plural(total.visits, "visit")} in all (${plural(total.humans, "human")}, ${plural(total.bots, "bot")}); ` +
        `the busiest ${unit}, ${bucketLabel(busiest!.t, granularity)}, had ${plural(busiest!.visits, "visit")}.`;

  const svg = s(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, "data-total": total.visits },
    grid,
    bars,
    labels,
    total.visits === 0 &&
      s("text", { class: "chart-empty", x: left + plotWidth / 2, y: margin.top + plotHeight / 2, "text-anchor": "middle" }, "No visits in this range"),
  );

  const rows = series.filter((b) => b.visits > 0);
  const table = h(
    "div",
    { class: "visually-hidden" },
    rows.length === 0
      ? h("p", {}, summary)
      : h(
          "table",
          {},
          h("caption", {}, `${subject} by ${unit} (${unit}s without visits are left out)`),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, unit === "hour" ? "Hour" : "Day (UTC)"),
              h("th", { scope: "col" }, "Humans"),
              h("th", { scope: "col" }, "Bots"),
              h("th", { scope: "col" }, "Visits"),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((b) =>
              h(
                "tr",
                {},
                h("th", { scope: "row" }, bucketLabel(b.t, granularity)),
                h("td", {}, formatCount(b.humans)),
                h("td", {}, formatCount(b.bots)),
                h("td", {}, formatCount(b.visits)),
              ),
            ),
          ),
        ),
  );
  return { svg, table };
}
