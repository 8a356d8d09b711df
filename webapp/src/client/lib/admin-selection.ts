/**
 * The admin table's selection: a box on each row and one for the whole page,
 * and what can be done to the selected links at once: download them as CSV,
 * or delete them after one explicit confirmation. A selection lives on the
 * page of rows shown: another page, search or sort starts with none.
 */
import { deleteLink } from "./admin-links.ts";
import type { LinkRow } from "./admin-table.ts";
import { ApiError, type Credential } from "./api.ts";
import { byId, show } from "./dom.ts";
import { plural } from "./format.ts";
import { linksCsv } from "./links-csv.ts";
import { OfferedFiles } from "./offered-files.ts";

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

/** Deletes at once: enough to be quick, few enough to stay clear of the API's rate limit on a page of 100. */
const deletesInFlight = 4;

export function adminSelection(host: SelectionHost): Selection {
  const pageBox = byId<HTMLInputElement>("select-page");
  const bar = byId("bulk-bar");
  const count = byId("bulk-count");
  const actions = byId("bulk-actions");
  const exportLink = byId<HTMLAnchorElement>("bulk-export");
  const deleteButton = byId<HTMLButtonElement>("bulk-delete");
  const confirm = byId("bulk-confirm");
  const question = byId("bulk-question");
  const error = byId("bulk-error");
  const confirmButton = byId<HTMLButtonElement>("bulk-confirm-delete");
  const cancelButton = byId<HTMLButtonElement>("bulk-cancel");
  const files = new OfferedFiles();
  let rows: readonly LinkRow[] = [];

  const selected = () => rows.filter((row) => row.checkbox.checked);

  function update(): void {
    const chosen = selected();
    pageBox.checked = rows.length > 0 && chosen.length === rows.length;
    pageBox.indeterminate = chosen.length > 0 && chosen.length < rows.length;
    pageBox.disabled = rows.length === 0;
    show(bar, chosen.length > 0);
    count.textContent = `${plural(chosen.length, "link")} selected`;
    files.clear();
    if (chosen.length > 0) {
      files.offer(exportLink, new Blob([linksCsv(chosen.map((row) => row.record()))], { type: "text/csv" }), "linkgeo-selected-links.csv");
    }
    closeQuestion();
  }

  function closeQuestion(): void {
    show(confirm, false);
    show(actions, true);
    error.textContent = "";
    confirmButton.disabled = cancelButton.disabled = false;
  }

  function ask(): void {
    const n = selected().length;
    question.textContent = `Delete ${plural(n, "link")}? Their visits go with them; this cannot be undone.`;
    confirmButton.textContent = `Yes, delete ${plural(n, "link")}`;
    show(actions, false);
    show(confirm, true);
    cancelButton.focus();
  }

  async function remove(): Promise<void> {
    const codes = selected().map((row) => row.record().short_url);
    confirmButton.disabled = cancelButton.disabled = true;
    const failures: unknown[] = [];
    let deleted = 0;
    for (let start = 0; start < codes.length; start += deletesInFlight) {
      const outcomes = await Promise.allSettled(codes.slice(start, start + deletesInFlight).map((code) => deleteLink(code, host.credential())));
      for (const outcome of outcomes) {
        // Already gone (another admin, another tab): what was asked for is true.
        if (outcome.status === "fulfilled" || (outcome.reason instanceof ApiError && outcome.reason.status === 404)) deleted += 1;
        else failures.push(outcome.reason);
      }
      if (failures.some((failure) => host.handled(failure))) return;
    }
    if (deleted === 0) {
      confirmButton.disabled = cancelButton.disabled = false;
      error.textContent = `No link could be deleted: ${reason(failures[0])}`;
      return;
    }
    host.deleted(
      failures.length === 0
        ? `${plural(deleted, "link")} deleted.`
        : `${plural(deleted, "link")} deleted; ${plural(failures.length, "link")} could not be: ${reason(failures[0])}`,
    );
  }

  pageBox.addEventListener("change", () => {
    for (const row of rows) row.checkbox.checked = pageBox.checked;
    update();
  });
  byId("links-body").addEventListener("change", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.classList.contains("select-link")) update();
  });
  byId("bulk-clear").addEventListener("click", () => {
    for (const row of rows) row.checkbox.checked = false;
    update();
    pageBox.focus();
  });
  deleteButton.addEventListener("click", ask);
  cancelButton.addEventListener("click", () => {
    closeQuestion();
    deleteButton.focus();
  });
  confirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !cancelButton.disabled) {
      closeQuestion();
      deleteButton.focus();
    }
  });
  confirmButton.addEventListener("click", () => void remove());

  return {
    show(shown) {
      rows = shown;
      update();
    },
  };
}

function reason(error: unknown): string {
  return error instanceof ApiError ? error.message : "the server did not answer.";
}
