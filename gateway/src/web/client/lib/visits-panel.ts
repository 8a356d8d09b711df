/**
 * A link's visits on its page: the chart over a preset range or dates the
 * person chooses, by hour or by day; the totals; the top referrers,
 * countries (also shaded on the world map), browsers, systems and devices,
 * each value with its share of the range's visits; the report as CSV; and
 * live updates while the page is open and shown: a cheap poll of the
 * link's public stats, the report read again only when the count moved.
 */
import { api, ApiError, type Credential } from "./api.ts";
import { byId, fill, h, show } from "./dom.ts";
import { formatCount, plural, regionName } from "./format.ts";
import { plainWords } from "./plain-words.ts";
import { visitsChart, type Granularity, type VisitBucket } from "./visits-chart.ts";
import { fetchWorldMap } from "./world-map-view.ts";

export interface LinkStats {
  short_url: string;
  access_count: number;
  last_accessed_at: string | null;
}

type TopEntry = { value: string; visits: number };
const dimensions = ["referrers", "countries", "browsers", "os", "devices"] as const;
type Dimension = (typeof dimensions)[number];

interface VisitReport {
  from: string;
  to: string;
  granularity: Granularity;
  totals: { visits: number; humans: number; bots: number };
  series: VisitBucket[];
  top: Record<Dimension, TopEntry[]>;
}

export interface VisitsPanelHost {
  /** The link's API path, `/shorten/<code>/`. */
  linkPath: string;
  code: string;
  /** The world map's fingerprinted URL, for the countries' map. */
  mapUrl: string;
  /** What reads the visits; null: nothing does (yet). */
  credential(): Credential | null;
  /** The link is gone. */
  missing(): void;
  /** The credential no longer reads the visits. */
  refused(): void;
  /** A poll found the count moved: the page's summary shows the new one. */
  counted(stats: LinkStats): void;
}

export interface VisitsPanel {
  /** Reads and shows the report of the chosen range, and keeps it live from then on. */
  load(): Promise<void>;
  /** No more reading: the link is gone, or the credential with it. */
  stop(): void;
}

const rangeDays: Record<string, number> = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 };
const dayMs = 86_400_000;
const stepMs: Record<Granularity, number> = { hour: 3_600_000, day: dayMs };
/** The API's own bounds: a year of hours, ten years of days. */
const maxBuckets: Record<Granularity, number> = { hour: 366 * 24, day: 3_660 };
/** How often an open, shown page asks whether the count moved: one small public read. */
export const liveUpdateMs = 5_000;

/** The query of a range: `from` and `to` as the API reads them. */
interface Range {
  from: Date;
  to: Date;
  /** Ends now: the range a live update can add to. */
  live: boolean;
}

export function visitsPanel(host: VisitsPanelHost): VisitsPanel {
  const rangeSelect = byId<HTMLSelectElement>("range");
  const granularitySelect = byId<HTMLSelectElement>("granularity");
  const customRange = byId("custom-range");
  const fromInput = byId<HTMLInputElement>("range-from");
  const toInput = byId<HTMLInputElement>("range-to");
  const rangeError = byId("range-error");
  const chartBox = byId("chart");
  const liveNote = byId("visits-live");
  const countriesMap = byId("top-countries-map");

  let shownReport: VisitReport | null = null;
  let shownRange: Range | null = null;
  let drawnWidth = 0;
  let loading: AbortController | null = null;
  let reading = false;
  let lastCount: number | null = null;
  let polling: ReturnType<typeof setInterval> | undefined;
  const map = fetchWorldMap(host.mapUrl).then(
    (svg) => {
      svg.setAttribute("class", "world-map choropleth");
      svg.setAttribute("focusable", "false");
      fill(countriesMap, svg);
      return svg;
    },
    () => null,
  );

  const granularity = (): Granularity => (granularitySelect.value === "hour" ? "hour" : "day");

  /** The chosen range; a message instead when the dates chosen cannot be asked for. */
  function chosenRange(): Range | string {
    const step = stepMs[granularity()];
    const now = Date.now();
    if (rangeSelect.value !== "custom") {
      const span = (rangeDays[rangeSelect.value] ?? 7) * dayMs;
      // 24 hours by the hour are 24 buckets ending with this one; a single day is shown as yesterday and today.
      const first = span / step >= 2 ? now - span + step : now - span;
      return { from: new Date(Math.floor(first / step) * step), to: new Date(now), live: true };
    }
    const from = fromInput.valueAsDate;
    const until = toInput.valueAsDate;
    if (!from || !until) return "Choose both dates: the first and the last day to show.";
    // The last day is shown whole: up to its end, or to now when that is today.
    const to = new Date(Math.min(until.getTime() + dayMs, now));
    if (from.getTime() >= to.getTime()) return "The first day must come before the last, and not after today.";
    if ((to.getTime() - from.getTime()) / step > maxBuckets[granularity()]) {
      return granularity() === "hour" ? "By the hour, a range can be a year at most: choose days, or fewer of them." : "A range can be ten years at most.";
    }
    return { from, to, live: until.getTime() + dayMs > now };
  }

  function reportQuery(range: Range): URLSearchParams {
    return new URLSearchParams({ from: range.from.toISOString(), to: range.to.toISOString(), granularity: granularity() });
  }

  async function load(): Promise<void> {
    const credential = host.credential();
    if (!credential) return;
    const range = chosenRange();
    rangeError.textContent = typeof range === "string" ? range : "";
    if (typeof range === "string") return;
    loading?.abort();
    const controller = (loading = new AbortController());
    reading = true;
    chartBox.setAttribute("aria-busy", "true");
    byId("visits-error").textContent = "";
    try {
      const report = await api<VisitReport>(`${host.linkPath}visits/?${reportQuery(range)}`, { credential, signal: controller.signal });
      shownRange = range;
      showReport(report);
      keepLive();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && error.status === 404) return host.missing();
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return host.refused();
      byId("visits-error").textContent = `The visits could not be loaded. ${plainWords(error)}`;
    } finally {
      if (loading === controller) {
        reading = false;
        chartBox.removeAttribute("aria-busy");
      }
    }
  }

  function showReport(report: VisitReport): void {
    shownReport = report;
    const { visits, humans, bots } = report.totals;
    byId("visits-totals").textContent = `${plural(visits, "visit")} in this range: ${plural(humans, "human")}, ${plural(bots, "bot")}.`;
    drawChart();
    for (const dimension of dimensions) fill(byId(`top-${dimension}`), topList(dimension, report.top[dimension], visits));
    void shadeCountries(report.top.countries);
  }

  function drawChart(): void {
    if (!shownReport) return;
    drawnWidth = Math.round(chartBox.clientWidth) || 640;
    const { svg, table } = visitsChart(shownReport.series, shownReport.granularity, drawnWidth);
    fill(chartBox, svg, table);
  }

  /** The named countries shaded by their share of the most visited one's visits; the rest stay plain. */
  async function shadeCountries(entries: TopEntry[]): Promise<void> {
    const svg = await map;
    if (!svg) return show(countriesMap, false);
    const most = Math.max(1, ...entries.map((entry) => entry.visits));
    const shares = new Map(entries.filter((entry) => /^[A-Z]{2}$/.test(entry.value)).map((entry) => [entry.value, entry.visits / most]));
    for (const path of svg.querySelectorAll<SVGPathElement>("path[data-country]")) {
      const share = shares.get(path.dataset.country ?? "");
      path.classList.toggle("visited", share !== undefined);
      if (share === undefined) path.style.removeProperty("--share");
      else path.style.setProperty("--share", `${Math.round(20 + share * 80)}%`);
    }
  }

  /** Live: while the range ends now and the page is shown, the count is asked for now and then; a change reads the report again. */
  function keepLive(): void {
    clearInterval(polling);
    const live = shownRange?.live === true;
    liveNote.textContent = live ? "Updates by itself while open." : "";
    if (!live) return;
    polling = setInterval(() => void poll(), liveUpdateMs);
  }

  async function poll(): Promise<void> {
    if (document.visibilityState !== "visible" || reading) return;
    try {
      const stats = await api<LinkStats>(`${host.linkPath}stats/`);
      if (lastCount !== null && stats.access_count !== lastCount) {
        host.counted(stats);
        await load();
      }
      lastCount = stats.access_count;
    } catch {
      // A missed poll is no news: the next one asks again.
    }
  }

  // The chart is drawn at the width it is shown at (its text keeps its size): redraw when that changes.
  new ResizeObserver(() => {
    const width = Math.round(chartBox.clientWidth);
    if (shownReport && width > 0 && Math.abs(width - drawnWidth) > 1) drawChart();
  }).observe(chartBox);

  rangeSelect.addEventListener("change", () => {
    const custom = rangeSelect.value === "custom";
    show(customRange, custom);
    if (custom) {
      // Dates to start from: the last 30 days, which the person then changes.
      if (!toInput.value) toInput.valueAsDate = new Date(Math.floor(Date.now() / dayMs) * dayMs);
      if (!fromInput.value) fromInput.valueAsDate = new Date(Math.floor(Date.now() / dayMs) * dayMs - 29 * dayMs);
      fromInput.focus();
    } else {
      // By the hour for a day, by the day for longer; the other stays a choice.
      granularitySelect.value = rangeSelect.value === "24h" ? "hour" : "day";
    }
    void load();
  });
  granularitySelect.addEventListener("change", () => void load());
  fromInput.addEventListener("change", () => void load());
  toInput.addEventListener("change", () => void load());
  // Shown again after a while away: catch up at once rather than at the next tick.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && shownRange?.live) void poll();
  });

  byId("visits-csv").addEventListener("click", () => void downloadCsv());

  /** The report of the range shown, as the API's CSV, fetched with the credential (a plain link could not carry a token). */
  async function downloadCsv(): Promise<void> {
    const credential = host.credential();
    const range = chosenRange();
    if (!credential || typeof range === "string") return;
    byId("visits-error").textContent = "";
    try {
      const query = reportQuery(range);
      query.set("format", "csv");
      const csv = await api<Blob>(`${host.linkPath}visits/export?${query}`, { credential, as: "blob" });
      const url = URL.createObjectURL(csv);
      const link = h("a", { href: url, download: `${host.code}-visits.csv`, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return host.refused();
      byId("visits-error").textContent = `The visits could not be downloaded. ${plainWords(error)}`;
    }
  }

  return {
    stop() {
      loading?.abort();
      clearInterval(polling);
    },
    async load() {
      await load();
      if (lastCount === null) {
        try {
          lastCount = (await api<LinkStats>(`${host.linkPath}stats/`)).access_count;
        } catch {
          // The first poll sets it.
        }
      }
    },
  };
}

const deviceNames: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet", bot: "Bot", other: "Other" };

function valueLabel(dimension: Dimension, value: string): string {
  if (value === "other") return "Other";
  if (value === "unknown") return "Unknown";
  if (dimension === "referrers" && value === "direct") return "Direct (no referrer)";
  if (dimension === "devices") return deviceNames[value] ?? value;
  if (dimension === "countries" && /^[A-Z]{2}$/.test(value)) return regionName(value);
  return value;
}

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

/**
 * A ranked list; each row says its visits and their share of the range's
 * `total`, and is shaded by its share of the first's visits (--share, from
 * the stylesheet's gradient).
 */
function topList(dimension: Dimension, entries: TopEntry[], total: number): HTMLElement {
  if (entries.length === 0) return h("p", { class: "muted" }, "No visits yet");
  const most = Math.max(1, ...entries.map((entry) => entry.visits));
  return h(
    "ol",
    { class: "ranked shared" },
    entries.map((entry) => {
      const share = total > 0 ? entry.visits / total : 0;
      // Under 1 % but not none reads "<1 %", never a misleading "0 %".
      const shareText = share > 0 && share < 0.005 ? `<${percent.format(0.01)}` : percent.format(share);
      const row = h(
        "li",
        {},
        h("span", {}, valueLabel(dimension, entry.value)),
        h("span", { class: "count" }, formatCount(entry.visits), h("span", { class: "share" }, ` · ${shareText}`)),
      );
      row.style.setProperty("--share", `${Math.round((entry.visits / most) * 100)}%`);
      return row;
    }),
  );
}
