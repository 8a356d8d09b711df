/**
 * A link's visits on its page: the chart over a preset range or dates the
 * person chooses, by hour or by day; the totals; the top referrers,
 * countries (also shaded on the world map), browsers, systems and devices,
 * each value with its share of the range's visits, and the bots by name in
 * a list of their own; a humans-only switch that leaves bots out of the
 * chart and the lists; a row chosen to chart that value's visits alone (by
 * day: breakdowns are kept per day); the report as CSV; and live updates
 * while the page is open and shown: a cheap poll of the link's public
 * stats, the report read again only when the count moved. With analytics
 * off on the server, it says so instead.
 */
import { api, ApiError, type Credential } from "./api.ts";
import { byId, fill, h, show } from "./dom.ts";
import { liveUpdateMs } from "./live-update.ts";
import { formatCount, plural, regionName } from "./format.ts";
import { plainWords } from "./plain-words.ts";
import { visitsChart, type Granularity, type VisitBucket } from "./visits-chart.ts";
import { fetchWorldMap } from "./world-map-view.ts";

export interface LinkStats {
  short_url: string;
  access_count: number;
  last_accessed_at: string | null;
}

type TopEntry = { value: string; visits: number; humans: number; bots: number };
const dimensions = ["referrers", "countries", "browsers", "os", "devices"] as const;
type Dimension = (typeof dimensions)[number];
/** A list on the page: a breakdown, or the bots by name. */
type List = Dimension | "bots";

interface RecordedReport {
  from: string;
  to: string;
  granularity: Granularity;
  analytics: "on";
  totals: { visits: number; humans: number; bots: number };
  series: VisitBucket[];
  top: Record<List, TopEntry[]>;
}

/** With analytics off on the server a visit is only counted: the report has no numbers, and says why. */
type VisitReport = RecordedReport | { analytics: "off"; totals: null; series: null; top: null };

/** The one value whose visits the chart shows: a row chosen in a list. */
interface ChartFilter {
  list: List;
  value: string;
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
  /**
   * No more reading: the link is gone, or the credential with it, or it is
   * about to be deleted. A read under way is dropped, so none is answered
   * after this (a poll's 404 would be an error in the console).
   */
  stop(): void;
  /** Live again after a stop that was not needed (the deletion failed): polling from now, the report as shown. */
  resume(): void;
}

const rangeDays: Record<string, number> = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 };
const dayMs = 86_400_000;
const stepMs: Record<Granularity, number> = { hour: 3_600_000, day: dayMs };
/** The API's own bounds: a year of hours, ten years of days. */
const maxBuckets: Record<Granularity, number> = { hour: 366 * 24, day: 3_660 };

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
  const humansOnly = byId<HTMLInputElement>("humans-only");
  const filterNote = byId("chart-filter");
  const controls = byId("chart-controls");
  const reportBox = byId("visits-report");
  const analyticsOff = byId("analytics-off");

  let shownReport: RecordedReport | null = null;
  let shownRange: Range | null = null;
  let drawnWidth = 0;
  let loading: AbortController | null = null;
  let reading = false;
  let lastCount: number | null = null;
  /** Set while live: the poll's timer. */
  let polling: ReturnType<typeof setInterval> | undefined;
  /** What a stop aborts: the reads of the count under way. */
  let countReads = new AbortController();
  let filter: ChartFilter | null = null;
  const map = fetchWorldMap(host.mapUrl).then(
    (svg) => {
      svg.setAttribute("class", "world-map choropleth");
      svg.setAttribute("focusable", "false");
      fill(countriesMap, svg);
      return svg;
    },
    () => null,
  );

  // One value's visits are kept per day only.
  const granularity = (): Granularity => (filter === null && granularitySelect.value === "hour" ? "hour" : "day");
  /** What a list's row counts: its humans with the switch on (the bots' list, its bots). */
  const countOf = (list: List) => (entry: TopEntry) => (list === "bots" ? entry.bots : humansOnly.checked ? entry.humans : entry.visits);

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
    const query = new URLSearchParams({ from: range.from.toISOString(), to: range.to.toISOString(), granularity: granularity() });
    if (humansOnly.checked) query.set("visitors", "humans");
    if (filter) {
      // The bots' list names browsers: a bot's name is its browser.
      query.set("breakdown", filter.list === "bots" ? "browsers" : filter.list);
      query.set("value", filter.value);
    }
    return query;
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
      if (error instanceof ApiError && error.status === 404) return gone();
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
    const off = report.analytics === "off";
    // Not an empty chart, which would read as "nobody came": the count above still grows.
    show(analyticsOff, off);
    show(controls, !off);
    show(reportBox, !off);
    if (off) {
      shownReport = null;
      return;
    }
    shownReport = report;
    const { visits, humans, bots } = report.totals;
    const counted = humansOnly.checked
      ? `${plural(humans, "human visit")} in this range (${plural(bots, "bot")} left out).`
      : `${plural(visits, "visit")} in this range: ${plural(humans, "human")}, ${plural(bots, "bot")}.`;
    byId("visits-totals").textContent = filter ? `${capitalized(filterName(filter))}: ${counted}` : counted;
    drawChart();
    // A row keeps the focus across a redraw (a live update, or the row just chosen).
    const focused =
      document.activeElement instanceof HTMLElement && document.activeElement.classList.contains("row-filter") ? { ...document.activeElement.dataset } : null;
    for (const list of [...dimensions, "bots" as const]) fill(byId(`top-${list}`), topList(list, report.top[list], countOf(list), filter, choose));
    if (focused) {
      for (const row of document.querySelectorAll<HTMLButtonElement>(".row-filter")) {
        if (row.dataset.list === focused.list && row.dataset.value === focused.value) row.focus();
      }
    }
    void shadeCountries(report.top.countries);
  }

  function drawChart(): void {
    if (!shownReport) return;
    drawnWidth = Math.round(chartBox.clientWidth) || 640;
    const series = humansOnly.checked ? shownReport.series.map((bucket) => ({ ...bucket, visits: bucket.humans, bots: 0 })) : shownReport.series;
    const what = filter ? filterName(filter) : "visits";
    const subject = humansOnly.checked ? `Human ${what}` : capitalized(what);
    const { svg, table } = visitsChart(series, shownReport.granularity, drawnWidth, subject);
    fill(chartBox, svg, table);
  }

  /** A row chosen: its visits alone in the chart, or every visit again when it was the one shown. */
  function choose(list: List, value: string): void {
    filter = filter?.list === list && filter.value === value ? null : { list, value };
    showFilter();
    void load();
  }

  function showFilter(): void {
    show(filterNote, filter !== null);
    byId("chart-filter-text").textContent = filter ? `The chart shows only ${filterName(filter)}, by day.` : "";
    granularitySelect.disabled = filter !== null;
  }

  /** The named countries shaded by their share of the most visited one's visits; the rest stay plain. */
  async function shadeCountries(entries: TopEntry[]): Promise<void> {
    const svg = await map;
    if (!svg) return show(countriesMap, false);
    const count = countOf("countries");
    const most = Math.max(1, ...entries.map(count));
    const shares = new Map(entries.filter((entry) => /^[A-Z]{2}$/.test(entry.value)).map((entry) => [entry.value, count(entry) / most]));
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
    polling = undefined;
    const live = shownRange?.live === true;
    liveNote.textContent = live ? "Updates by itself while open." : "";
    if (!live) return;
    polling = setInterval(() => void poll(), liveUpdateMs);
  }

  function stop(): void {
    loading?.abort();
    countReads.abort();
    countReads = new AbortController();
    clearInterval(polling);
    polling = undefined;
  }

  /** The link is gone: asking again every few seconds would only be told so again. */
  function gone(): void {
    stop();
    host.missing();
  }

  /** The link's public count: a cheap read, which a stop drops. */
  const readCount = () => api<LinkStats>(`${host.linkPath}stats/`, { signal: countReads.signal });

  async function poll(): Promise<void> {
    if (polling === undefined || document.visibilityState !== "visible" || reading) return;
    try {
      const stats = await readCount();
      if (lastCount !== null && stats.access_count !== lastCount) {
        host.counted(stats);
        await load();
      }
      lastCount = stats.access_count;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return gone();
      // Otherwise a missed poll is no news: the next one asks again.
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
  humansOnly.addEventListener("change", () => void load());
  byId("chart-filter-clear").addEventListener("click", () => {
    filter = null;
    showFilter();
    granularitySelect.focus();
    void load();
  });
  fromInput.addEventListener("change", () => void load());
  toInput.addEventListener("change", () => void load());
  // Shown again after a while away: catch up at once rather than at the next tick.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void poll();
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
    stop,
    resume: keepLive,
    async load() {
      await load();
      if (lastCount === null) {
        try {
          lastCount = (await readCount()).access_count;
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return gone();
          // Otherwise the first poll sets it.
        }
      }
    },
  };
}

const deviceNames: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet", bot: "Bot", other: "Other" };

function valueLabel(list: List, value: string): string {
  if (value === "other") return "Other";
  if (value === "unknown") return "Unknown";
  if (list === "referrers" && value === "direct") return "Direct (no referrer)";
  if (list === "devices") return deviceNames[value] ?? value;
  if (list === "countries" && /^[A-Z]{2}$/.test(value)) return regionName(value);
  return value;
}

/** How the chart's subject reads for a chosen row: "visits from Germany". */
const filterPhrases: Record<List, (label: string) => string> = {
  referrers: (label) => `visits from the referrer ${label}`,
  countries: (label) => `visits from ${label}`,
  browsers: (label) => `visits with the browser ${label}`,
  os: (label) => `visits from ${label}`,
  devices: (label) => `visits from devices of the kind ${label}`,
  bots: (label) => `visits of the bot ${label}`,
};

function filterName(filter: ChartFilter): string {
  return filterPhrases[filter.list](valueLabel(filter.list, filter.value));
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

/**
 * A ranked list; each row says its visits (as `count` counts them) and
 * their share of the list's sum (every visit of the range it counts: a
 * list ends with "other"), and is shaded by its share of the first's. A
 * named value's row is a button that charts its visits alone (`choose`);
 * the chosen one is pressed.
 */
function topList(
  list: List,
  entries: TopEntry[],
  count: (entry: TopEntry) => number,
  chosen: ChartFilter | null,
  choose: (list: List, value: string) => void,
): HTMLElement {
  if (entries.length === 0) return h("p", { class: "muted" }, list === "bots" ? "No bots yet" : "No visits yet");
  const total = entries.reduce((sum, entry) => sum + count(entry), 0);
  const most = Math.max(1, ...entries.map(count));
  return h(
    "ol",
    { class: "ranked shared" },
    entries.map((entry) => {
      const share = total > 0 ? count(entry) / total : 0;
      // Under 1 % but not none reads "<1 %", never a misleading "0 %".
      const shareText = share > 0 && share < 0.005 ? `<${percent.format(0.01)}` : percent.format(share);
      const label = h("span", {}, valueLabel(list, entry.value));
      const figures = h("span", { class: "count" }, formatCount(count(entry)), h("span", { class: "share" }, ` · ${shareText}`));
      // "other" is the rest of the list, not one value: it cannot be charted alone.
      const content =
        entry.value === "other"
          ? [label, figures]
          : [
              h(
                "button",
                {
                  type: "button",
                  class: "row-filter",
                  "aria-pressed": String(chosen?.list === list && chosen.value === entry.value),
                  "data-list": list,
                  "data-value": entry.value,
                  onclick: () => choose(list, entry.value),
                },
                label,
                figures,
              ),
            ];
      const row = h("li", {}, ...content);
      row.style.setProperty("--share", `${Math.round((count(entry) / most) * 100)}%`);
      return row;
    }),
  );
}
