/**
 * The admin page's import (view.ts): a file is first sent as a dry run,
 * whose report says how many links would be imported and which rows would
 * not, with their line and reason; "Import" sends the same file for real
 * and reports what was done, and the table loads again with the new links.
 * Both go with the admin's session cookie and CSRF token.
 */
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, plural } from "../../client/lib/format.ts";
import { importFormats, importLinks, keptRefusals, type ImportFormat, type ImportReport } from "../../client/lib/link-import.ts";
import { isOutage } from "../../client/lib/outage-retry.ts";
import { linkImportParts } from "./parts.ts";

export interface LinkImportDeps {
  credential(): Credential;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  /** Links were imported: the table shows them, and says `summary`. */
  imported(summary: string): void;
}

type Parts = FoundParts<typeof linkImportParts.spec>;

export function mount(root: HTMLElement, deps: LinkImportDeps): LinkImport {
  return new LinkImport(findParts(root, linkImportParts), deps);
}

export class LinkImport {
  private running: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: LinkImportDeps,
  ) {
    ui.importForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.run(true);
    });
    ui.importConfirm.addEventListener("click", () => void this.run(false));
    ui.importCancel.addEventListener("click", () => this.startOver({ keepFile: true }));
    ui.importAnother.addEventListener("click", () => this.startOver({ keepFile: false }));
    // Another file or format: a report of the last one says nothing about it.
    for (const field of [ui.importFile, ui.importFormat]) field.addEventListener("change", () => this.hideReport());
  }

  /** Signed out: an import under way stops reading its answer, and nothing of it stays. */
  clear(): void {
    this.running?.abort();
    this.startOver({ keepFile: false, focus: false });
  }

  private async run(dryRun: boolean): Promise<void> {
    const { ui } = this;
    const file = ui.importFile.files?.[0];
    this.say("", "");
    showFieldError(ui.importFile, null);
    if (!file) {
      showFieldError(ui.importFile, "Choose a file to import.");
      return ui.importFile.focus();
    }
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.busy(true);
    if (dryRun) this.hideReport();
    this.say(dryRun ? `Checking ${file.name}…` : `Importing ${file.name}…`, "");
    try {
      const report = await importLinks({
        file,
        fileName: file.name,
        dryRun,
        format: formatOf(ui.importFormat.value),
        credential: this.deps.credential(),
        signal: controller.signal,
        onProgress: (so) => this.say(`${dryRun ? "Checked" : "Read"} ${plural(so.counts.lines, "line")} of ${file.name}…`, ""),
      });
      this.showReport(file.name, report);
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error)) return;
      this.say("", problemOf(error, dryRun));
    } finally {
      if (this.running === controller) {
        this.running = null;
        this.busy(false);
      }
    }
  }

  private showReport(fileName: string, report: ImportReport): void {
    const { ui } = this;
    const { counts } = report;
    const read = report.format ? ` (${formatNames[report.format] ?? report.format})` : "";
    ui.importReportTitle.textContent = report.dryRun ? `Dry run of ${fileName}${read}: nothing is stored yet` : `Imported from ${fileName}${read}`;
    showCounts(ui.importCounts, report);
    showRefusals(ui, report);
    const canImport = report.dryRun && report.finished && counts.imported > 0;
    ui.importConfirm.textContent = `Import ${plural(counts.imported, "link")}`;
    show(ui.importConfirmRow, canImport);
    show(ui.importDoneRow, !canImport);
    show(ui.importReport, true);
    this.say(outcomeOf(report), report.stopped ? stoppedText(report) : "");
    ui.importReportTitle.focus();
    if (!report.dryRun) this.deps.imported(report.finished ? `${plural(counts.imported, "link")} imported from ${fileName}.` : `Part of ${fileName} imported.`);
  }

  private startOver({ keepFile, focus = true }: { keepFile: boolean; focus?: boolean }): void {
    if (!keepFile) this.ui.importForm.reset();
    showFieldError(this.ui.importFile, null);
    this.hideReport();
    this.say("", "");
    if (focus) this.ui.importFile.focus();
  }

  private hideReport(): void {
    show(this.ui.importReport, false);
    fill(this.ui.importRefusals);
  }

  private busy(running: boolean): void {
    for (const button of [this.ui.importCheck, this.ui.importConfirm, this.ui.importCancel]) button.disabled = running;
  }

  private say(status: string, error: string): void {
    this.ui.importStatus.textContent = status;
    this.ui.importError.textContent = error;
  }
}

/** The format the server read a file as, in words. */
const formatNames: Record<string, string> = {
  "linkgeo-ndjson": "our export, NDJSON",
  "linkgeo-csv": "our export, CSV",
  csv: "CSV with a URL column",
  shlink: "Shlink export",
  bitly: "Bitly export",
  yourls: "YOURLS export",
};

function formatOf(value: string): ImportFormat | "" {
  return (importFormats as readonly string[]).includes(value) ? (value as ImportFormat) : "";
}

function showCounts(list: HTMLElement, { dryRun, counts }: ImportReport): void {
  const stat = (label: string, n: number) => h("div", { class: "stat" }, h("dt", {}, label), h("dd", {}, formatCount(n)));
  fill(
    list,
    stat("Lines", counts.lines),
    stat(dryRun ? "Would import" : "Imported", counts.imported),
    stat("Skipped", counts.skipped),
    stat("Problems", counts.problems),
  );
}

function showRefusals(ui: Parts, { counts, refusals }: ImportReport): void {
  const refused = counts.skipped + counts.problems;
  show(ui.importRefusedBox, refusals.length > 0);
  fill(
    ui.importRefusals,
    // In the file's order: the server may report a row a batch late.
    [...refusals]
      .sort((a, b) => a.line - b.line)
      .map((row) =>
        h(
          "tr",
          {},
          h("td", { class: "number" }, String(row.line)),
          h("td", { class: "mono" }, row.short_url ?? h("span", { class: "muted" }, "—")),
          h("td", {}, h("strong", {}, row.status === "skipped" ? "Skipped: " : "Problem: "), row.reason),
        ),
      ),
  );
  ui.importMore.textContent =
    refused > refusals.length ? `The first ${keptRefusals} are shown; ${formatCount(refused - refusals.length)} more were not imported.` : "";
}

function outcomeOf({ dryRun, finished, counts }: ImportReport): string {
  const refused = counts.skipped + counts.problems;
  const notImported = refused > 0 ? `; ${plural(refused, "row")} ${dryRun ? "would not be" : "not"} imported, see below` : "";
  if (!finished) return "";
  if (dryRun)
    return counts.imported > 0
      ? `${plural(counts.imported, "link")} would be imported${notImported}. Nothing is stored until you import.`
      : `Nothing to import${notImported}.`;
  return `${plural(counts.imported, "link")} imported${notImported}.`;
}

/** An import that stopped midway (the file turned binary or too large, the database failed): the server's reason, and what was stored. */
function stoppedText({ dryRun, stopped }: ImportReport): string {
  const reason = (stopped ?? "").replace(/\.$/, "");
  const stored = dryRun ? "" : " The rows before it were stored: import the file again once it is fixed, and they are skipped.";
  return `The ${dryRun ? "check" : "import"} stopped before the end of the file: ${reason}.${stored}`;
}

function problemOf(error: unknown, dryRun: boolean): string {
  const what = dryRun ? "The file could not be checked" : "The file could not be imported";
  if (!(error instanceof ApiError)) return `${what}.`;
  if (isOutage(error)) return `${what}: the service is not answering right now. Try again in a moment.`;
  if (error.status === 413) return `${what}: it is larger than this server takes.`;
  if (error.status === 400 && /format/.test(error.message)) return `${what}: its format cannot be told from its first line. Choose it under Format.`;
  return `${what}: ${error.message}`;
}
