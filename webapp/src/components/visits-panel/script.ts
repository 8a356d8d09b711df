/**
 * A link's visits on its page: the chart over a preset range or dates the
 * person chooses, its bars fitted to the range (hours for a day or two, days
 * for weeks, weeks or months beyond: lib/bar-sizes.ts); the totals; the top
 * referrers, countries (also shaded on the world map), browsers, systems and
 * devices, each value with its share of the range's visits, and the bots by
 * name in a list of their own; a humans-only switch that leaves bots out of
 * the chart and the lists; a row chosen to chart that value's visits alone
 * (by day at the finest: breakdowns are kept per day); the report as CSV;
 * and live updates while the page is open and shown (lib/live-count.ts).
 * With analytics off on the server, it says so instead. A report asked
 * during an outage is asked again by itself (lib/outage-retry.ts).
 */
import { domainQuery } from "../../client/lib/link-address.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { call, filledPath, queryString, type QueryParams } from "../../client/lib/api-call.ts";
import { barSizesFor, dayMs, fittingBarSize, seriesBy, type BarSize } from "../../client/lib/bar-sizes.ts";
import { CountryShading } from "../../client/lib/country-shading.ts";
import { downloadWithCredential } from "../../client/lib/credential-download.ts";
import { fill, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import type { LinkStats } from "../../client/lib/link-record.ts";
import { LiveCount } from "../../client/lib/live-count.ts";
import { outageWords, untilAnswered } from "../../client/lib/outage-retry.ts";
import { plainWords } from "../../client/lib/plain-words.ts";
import { topList } from "../../client/lib/top-list.ts";
import {
  capitalized,
  filterName,
  lists,
  recordedReport,
  type ChartFilter,
  type List,
  type RecordedReport,
  type TopEntry,
} from "../../client/lib/visit-report.ts";
import { chosenRange, chosenSpan, type RangeChoice, type VisitRange } from "../../client/lib/visits-range.ts";
import { visitsChart } from "../../client/lib/visits-chart.ts";
import { visitsPanelParts } from "./parts.ts";

export interface VisitsPanelHost {
  /** The link's code. */
  code: string;
  /** The host of its domain (the page's `?domain=`); absent, the default domain. */
  domain?: string;
  /** What reads the visits; null: nothing does (yet), or the report is open to anyone (`openToAnyone`). */
  credential(): Credential | null;
  /** The link's report is public (public_stats): read without a credential when there is none; its CSV stays the owners'. */
  openToAnyone(): boolean;
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
   * after this.
   */
  stop(): void;
  /** Live again after a stop that was not needed (the deletion failed): polling from now, the report as shown. */
  resume(): void;
  /** Moves the focus to the panel's heading (the form that opened it is gone). */
  focus(): void;
}

type Parts = FoundParts<typeof visitsPanelParts.spec>;
/** What a report is asked for with: its range, bars, visitors and chosen value. */
type ReportQuery = QueryParams<"GET /shorten/{short_url}/visits">;

export function mountVisitsPanel(root: HTMLElement, host: VisitsPanelHost): VisitsPanel {
  const panel = new VisitsPanelScript(findParts(root, visitsPanelParts), host);
  return {
    load: async () => {
      await panel.load();
      await panel.live.settle();
    },
    stop: () => panel.stop(),
    resume: () => panel.keepLive(),
    focus: () => panel.ui.visitsHeading.focus(),
  };
}

class VisitsPanelScript {
  readonly live: LiveCount;
  private readonly map: CountryShading;
  private readonly lists: Record<List, HTMLElement>;
  private shownReport: RecordedReport | null = null;
  private shownRange: VisitRange | null = null;
  private drawnWidth = 0;
  private loading: AbortController | null = null;
  private filter: ChartFilter | null = null;

  constructor(
    readonly ui: Parts,
    private readonly host: VisitsPanelHost,
  ) {
    this.map = new CountryShading(ui.countriesMap);
    this.lists = { referrers: ui.topReferrers, countries: ui.topCountries, browsers: ui.topBrowsers, os: ui.topOs, devices: ui.topDevices, bots: ui.topBots };
    this.live = new LiveCount({
      code: host.code,
      domain: host.domain,
      busy: () => this.loading !== null,
      moved: async (stats) => {
        host.counted(stats);
        await this.load();
      },
      gone: () => host.missing(),
    });
    this.wire();
    this.fitBarsToRange();
  }

  /** What each bar counts: the size chosen, by day at the finest for one value's visits (breakdowns are kept per day). */
  private barSize(): BarSize {
    const size = this.ui.barSize.value as BarSize;
    return this.filter !== null && size === "hour" ? "day" : size;
  }

  private rangeChoice(): RangeChoice {
    return { preset: this.ui.range.value, firstDay: this.ui.rangeFrom.valueAsDate, lastDay: this.ui.rangeTo.valueAsDate };
  }

  /** A new range: the bars that fit it, and only those offered. */
  private fitBarsToRange(): void {
    const span = chosenSpan(this.rangeChoice(), Date.now());
    if (span === null) return;
    const fitting = barSizesFor(span);
    for (const option of this.ui.barSize.options) option.disabled = !fitting.includes(option.value as BarSize);
    this.ui.barSize.value = fittingBarSize(span);
  }

  private reportQuery(range: VisitRange): ReportQuery {
    const query: ReportQuery = {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      granularity: this.barSize() === "hour" ? "hour" : "day",
      ...domainQuery(this.host),
    };
    if (this.ui.humansOnly.checked) query.visitors = "humans";
    if (this.filter) {
      // The bots' list names browsers: a bot's name is its browser.
      query.breakdown = this.filter.list === "bots" ? "browsers" : this.filter.list;
      query.value = this.filter.value;
    }
    return query;
  }

  async load(): Promise<void> {
    const credential = this.host.credential();
    if (!credential && !this.host.openToAnyone()) return;
    show(this.ui.visitsCsv, credential !== null);
    const range = chosenRange(this.rangeChoice(), this.barSize(), Date.now());
    this.ui.rangeError.textContent = typeof range === "string" ? range : "";
    if (typeof range === "string") return;
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    this.ui.chart.setAttribute("aria-busy", "true");
    this.ui.visitsError.textContent = "";
    try {
      const asked = { params: { short_url: this.host.code }, query: this.reportQuery(range), credential, signal: controller.signal };
      const report = await untilAnswered(() => call("GET /shorten/{short_url}/visits", asked), {
        signal: controller.signal,
        waiting: (seconds) => (this.ui.visitsWaiting.textContent = outageWords(seconds)),
      });
      const recorded = recordedReport(report);
      // Analytics on and no numbers is no report: said as the error it is, not as analytics off.
      if (!recorded && report.analytics !== "off") throw new TypeError("a visits report without its numbers");
      this.shownRange = range;
      this.showReport(recorded);
      this.keepLive();
    } catch (error) {
      if (!controller.signal.aborted) this.failed(error);
    } finally {
      if (this.loading === controller) {
        this.loading = null;
        this.ui.visitsWaiting.textContent = "";
        this.ui.chart.removeAttribute("aria-busy");
      }
    }
  }

  private failed(error: unknown): void {
    if (error instanceof ApiError && error.status === 404) {
      this.stop();
      this.host.missing();
    } else if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      this.host.refused();
    } else {
      this.ui.visitsError.textContent = `The visits could not be loaded. ${plainWords(error)}`;
    }
  }

  /** A report with its numbers; null: analytics are off. */
  private showReport(report: RecordedReport | null): void {
    const off = report === null;
    // Not an empty chart, which would read as "nobody came": the count above still grows.
    show(this.ui.analyticsOff, off);
    show(this.ui.chartControls, !off);
    show(this.ui.visitsReport, !off);
    this.shownReport = report;
    if (off) return;
    const { visits, humans, bots } = report.totals;
    const counted = this.ui.humansOnly.checked
      ? `${plural(humans, "human visit")} in this range (${plural(bots, "bot")} left out).`
      : `${plural(visits, "visit")} in this range: ${plural(humans, "human")}, ${plural(bots, "bot")}.`;
    this.ui.visitsTotals.textContent = this.filter ? `${capitalized(filterName(this.filter))}: ${counted}` : counted;
    this.drawChart();
    this.showLists(report);
    void this.map.shade(report.top.countries, this.countOf("countries"));
  }

  /** What a list's row counts: its humans with the switch on (the bots' list, its bots). */
  private countOf(list: List): (entry: TopEntry) => number {
    return (entry) => (list === "bots" ? entry.bots : this.ui.humansOnly.checked ? entry.humans : entry.visits);
  }

  /** The top lists; a row keeps the focus across a redraw (a live update, or the row just chosen). */
  private showLists(report: RecordedReport): void {
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && active.classList.contains("row-filter") ? { ...active.dataset } : null;
    const choose = (list: List, value: string) => this.choose(list, value);
    for (const list of lists) fill(this.lists[list], topList(list, report.top[list], this.countOf(list), this.filter, choose));
    if (!focused) return;
    for (const list of Object.values(this.lists)) {
      for (const row of list.querySelectorAll<HTMLButtonElement>(".row-filter")) {
        if (row.dataset.list === focused.list && row.dataset.value === focused.value) row.focus();
      }
    }
  }

  private drawChart(): void {
    if (!this.shownReport) return;
    this.drawnWidth = Math.round(this.ui.chart.clientWidth) || 640;
    const humansOnly = this.ui.humansOnly.checked;
    const series = humansOnly ? this.shownReport.series.map((bucket) => ({ ...bucket, visits: bucket.humans, bots: 0 })) : this.shownReport.series;
    const what = this.filter ? filterName(this.filter) : "visits";
    const subject = humansOnly ? `Human ${what}` : capitalized(what);
    const size = this.barSize();
    const { svg, table } = visitsChart(seriesBy(series, size), size, this.drawnWidth, subject);
    fill(this.ui.chart, svg, table);
  }

  /** A row chosen: its visits alone in the chart, or every visit again when it was the one shown. */
  private choose(list: List, value: string): void {
    this.filter = this.filter?.list === list && this.filter.value === value ? null : { list, value };
    this.showFilter();
    void this.load();
  }

  private showFilter(): void {
    show(this.ui.chartFilter, this.filter !== null);
    this.ui.chartFilterText.textContent = this.filter ? `The chart shows only ${filterName(this.filter)}, by ${this.barSize()}.` : "";
    this.ui.barSize.disabled = this.filter !== null;
  }

  /** Live: while the range ends now (and the page is shown), the count is asked for now and then; a change reads the report again. */
  keepLive(): void {
    const live = this.shownRange?.live === true;
    this.ui.visitsLive.textContent = live ? "Updates by itself while open." : "";
    this.live.keep(live);
  }

  stop(): void {
    this.loading?.abort();
    this.live.stop();
  }

  private wire(): void {
    const { ui } = this;
    // The chart is drawn at the width it is shown at (its text keeps its size): redraw when that changes.
    new ResizeObserver(() => {
      const width = Math.round(ui.chart.clientWidth);
      if (this.shownReport && width > 0 && Math.abs(width - this.drawnWidth) > 1) this.drawChart();
    }).observe(ui.chart);
    ui.range.addEventListener("change", () => this.rangeChanged());
    const rangeEdited = () => {
      this.fitBarsToRange();
      void this.load();
    };
    ui.rangeFrom.addEventListener("change", rangeEdited);
    ui.rangeTo.addEventListener("change", rangeEdited);
    ui.barSize.addEventListener("change", () => void this.load());
    ui.humansOnly.addEventListener("change", () => void this.load());
    ui.chartFilterClear.addEventListener("click", () => {
      this.filter = null;
      this.showFilter();
      ui.barSize.focus();
      void this.load();
    });
    ui.visitsCsv.addEventListener("click", () => void this.downloadCsv());
  }

  private rangeChanged(): void {
    const { ui } = this;
    const custom = ui.range.value === "custom";
    show(ui.customRange, custom);
    if (custom) {
      // Dates to start from: the last 30 days, which the person then changes.
      const today = Math.floor(Date.now() / dayMs) * dayMs;
      if (!ui.rangeTo.value) ui.rangeTo.valueAsDate = new Date(today);
      if (!ui.rangeFrom.value) ui.rangeFrom.valueAsDate = new Date(today - 29 * dayMs);
      ui.rangeFrom.focus();
    }
    this.fitBarsToRange();
    if (this.filter) this.showFilter();
    void this.load();
  }

  /** The report of the range shown, as the API's CSV, fetched with the credential (a plain link could not carry a token). */
  private async downloadCsv(): Promise<void> {
    const credential = this.host.credential();
    const range = chosenRange(this.rangeChoice(), this.barSize(), Date.now());
    if (!credential || typeof range === "string") return;
    this.ui.visitsError.textContent = "";
    try {
      const query: QueryParams<"GET /shorten/{short_url}/visits/export"> = { ...this.reportQuery(range), format: "csv" };
      const path = filledPath("/shorten/{short_url}/visits/export", { short_url: this.host.code }) + queryString(query);
      await downloadWithCredential(path, credential, `${this.host.code}-visits.csv`);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return this.host.refused();
      this.ui.visitsError.textContent = `The visits could not be downloaded. ${plainWords(error)}`;
    }
  }
}
