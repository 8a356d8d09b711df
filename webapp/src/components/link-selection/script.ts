/**
 * The admin table's selection: a box on each row and one for the whole page,
 * and what can be done to the selected links at once: download them as CSV,
 * or delete them after one explicit confirmation. A selection lives on the
 * page of rows shown: another page, search or sort starts with none.
 */
import { addressOf, deleteLink } from "../../client/lib/admin-links.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { plural } from "../../client/lib/format.ts";
import { linksCsv } from "../../client/lib/links-csv.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import type { LinkRow } from "../link-row/script.ts";
import { linkSelectionParts } from "./parts.ts";

export interface SelectionHost {
  credential(): Credential;
  /** Handles what is not the selection's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  /** A bulk delete is over: the table loads again and says `summary`. */
  deleted(summary: string): void;
}

export interface Selection {
  /** The rows of the page now shown, none of them selected. */
  show(rows: readonly LinkRow[]): void;
}

type Parts = FoundParts<typeof linkSelectionParts.spec>;

/** Deletes at once: enough to be quick, few enough to stay clear of the API's rate limit on a page of 100. */
const deletesInFlight = 4;

export function mount(root: HTMLElement, host: SelectionHost): Selection {
  const ui = findParts(root, linkSelectionParts);
  const files = new OfferedFiles();
  let rows: readonly LinkRow[] = [];
  const selected = () => rows.filter((row) => row.checkbox.checked);

  function update(): void {
    const chosen = selected();
    ui.selectPage.checked = rows.length > 0 && chosen.length === rows.length;
    ui.selectPage.indeterminate = chosen.length > 0 && chosen.length < rows.length;
    ui.selectPage.disabled = rows.length === 0;
    show(ui.bulkBar, chosen.length > 0);
    ui.bulkCount.textContent = `${plural(chosen.length, "link")} selected`;
    files.clear();
    if (chosen.length > 0) {
      files.offer(ui.bulkExport, new Blob([linksCsv(chosen.map((row) => row.record()))], { type: "text/csv" }), "linkgeo-selected-links.csv");
    }
    closeQuestion(ui);
  }
  const tickAll = (ticked: boolean) => {
    for (const row of rows) row.checkbox.checked = ticked;
    update();
  };

  ui.selectPage.addEventListener("change", () => tickAll(ui.selectPage.checked));
  ui.bulkClear.addEventListener("click", () => {
    tickAll(false);
    ui.selectPage.focus();
  });
  ui.bulkDelete.addEventListener("click", () => ask(ui, selected().length));
  const cancel = () => {
    closeQuestion(ui);
    ui.bulkDelete.focus();
  };
  ui.bulkCancel.addEventListener("click", cancel);
  ui.bulkConfirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !ui.bulkCancel.disabled) cancel();
  });
  ui.bulkConfirmDelete.addEventListener("click", () => void remove(ui, selected(), host));

  return {
    show(shown) {
      rows = shown;
      for (const row of rows) row.checkbox.addEventListener("change", update);
      update();
    },
  };
}

function closeQuestion(ui: Parts): void {
  show(ui.bulkConfirm, false);
  show(ui.bulkActions, true);
  ui.bulkError.textContent = "";
  ui.bulkConfirmDelete.disabled = ui.bulkCancel.disabled = false;
}

function ask(ui: Parts, count: number): void {
  ui.bulkQuestion.textContent = `Delete ${plural(count, "link")}? Their visits go with them; this cannot be undone.`;
  ui.bulkConfirmDelete.textContent = `Yes, delete ${plural(count, "link")}`;
  show(ui.bulkActions, false);
  show(ui.bulkConfirm, true);
  ui.bulkCancel.focus();
}

async function remove(ui: Parts, chosen: readonly LinkRow[], host: SelectionHost): Promise<void> {
  const links = chosen.map((row) => addressOf(row.record()));
  ui.bulkConfirmDelete.disabled = ui.bulkCancel.disabled = true;
  const failures: unknown[] = [];
  let deleted = 0;
  for (let start = 0; start < links.length; start += deletesInFlight) {
    const outcomes = await Promise.allSettled(links.slice(start, start + deletesInFlight).map((link) => deleteLink(link, host.credential())));
    for (const outcome of outcomes) {
      // Already gone (another admin, another tab): what was asked for is true.
      if (outcome.status === "fulfilled" || (outcome.reason instanceof ApiError && outcome.reason.status === 404)) deleted += 1;
      else failures.push(outcome.reason);
    }
    if (failures.some((failure) => host.handled(failure))) return;
  }
  if (deleted === 0) {
    ui.bulkConfirmDelete.disabled = ui.bulkCancel.disabled = false;
    ui.bulkError.textContent = `No link could be deleted: ${reason(failures[0])}`;
    return;
  }
  host.deleted(
    failures.length === 0
      ? `${plural(deleted, "link")} deleted.`
      : `${plural(deleted, "link")} deleted; ${plural(failures.length, "link")} could not be: ${reason(failures[0])}`,
  );
}

function reason(error: unknown): string {
  return error instanceof ApiError ? error.message : "the server did not answer.";
}
