/**
 * One row of the admin's table of links: a box to select it (bulk actions,
 * lib/admin-selection.ts), what the link is, its counts, a sparkline, and the
 * actions (open its page, copy the short link, its QR code, change its
 * destination in place, delete it after an explicit confirmation in the row
 * itself).
 */
import { changeDestination, deleteLink, sparklineDays, type LinkRecord } from "./admin-links.ts";
import { ApiError, type Credential } from "./api.ts";
import { fill, h } from "./dom.ts";
import { formatCount } from "./format.ts";
import { stateNames } from "./link-options.ts";
import { sparkline } from "./sparkline.ts";

export interface RowHost {
  /** The signed-in admin's credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Shows the link's QR kit (a dialog); `from` gets the focus back when it closes. */
  showQr(record: LinkRecord, from: HTMLElement): void;
  /** Tells everyone what just happened ("Link abc deleted."). */
  announce(text: string): void;
  deleted(code: string): void;
  /** Handles what is not the row's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
}

export interface LinkRow {
  element: HTMLTableRowElement;
  /** Ticked: the link is among the selected ones. */
  checkbox: HTMLInputElement;
  /** The link as it is now (its destination may have been changed in the row). */
  record(): LinkRecord;
  /** Draws the sparkline once the page's daily counts arrive; null when they could not be had. */
  showDailyVisits(counts: readonly number[] | null): void;
}

const hidden = (text: string) => h("span", { class: "visually-hidden" }, text);

export function linkRow(initial: LinkRecord, host: RowHost): LinkRow {
  let record = initial;
  const code = record.short_url;

  const destinationCell = h("td", { class: "destination", "data-label": "Destination" });
  const lastVisitCell = h("td", { "data-label": "Last visited" });
  const sparklineCell = h("td", { class: "spark", "data-label": `Last ${sparklineDays} days` }, h("span", { class: "muted" }, "…", hidden(" loading")));
  const actionsCell = h("td", { class: "actions" });

  const showDestination = () => fill(destinationCell, h("span", { class: "truncate", title: record.long_url }, record.long_url));
  const showLastVisit = (iso: string | null) => fill(lastVisitCell, iso ? when(iso) : h("span", { class: "muted" }, "never"));

  const copyButton = h("button", { type: "button", class: "secondary small", onClick: () => void copyLink() }, "Copy", hidden(` the short link ${code}`));
  const qrButton: HTMLButtonElement = h(
    "button",
    { type: "button", class: "secondary small", onClick: () => host.showQr(record, qrButton) },
    "QR",
    hidden(` code of ${code}`),
  );
  const editButton = h("button", { type: "button", class: "secondary small", onClick: () => startEditing() }, "Edit", hidden(` ${code}`));
  const deleteButton = h("button", { type: "button", class: "secondary small delete", onClick: () => askToDelete() }, "Delete", hidden(` ${code}`));
  const actions = h(
    "div",
    { class: "row action-buttons" },
    h("a", { class: "button secondary small", href: pageOf(code) }, "Open", hidden(` ${code}`)),
    copyButton,
    qrButton,
    editButton,
    deleteButton,
  );
  const showActions = () => fill(actionsCell, actions);

  async function copyLink(): Promise<void> {
    try {
      await navigator.clipboard.writeText(record.link);
      host.announce(`Copied ${record.link}.`);
    } catch {
      host.announce(`Copying was refused by the browser: the short link is ${record.link}.`);
    }
  }

  function startEditing(): void {
    const inputId = `edit-${code}`;
    const input = h("input", { id: inputId, name: "long_url", type: "url", value: record.long_url, required: true, autocomplete: "off", spellcheck: "false" });
    const error = h("p", { class: "message error", role: "alert" });
    const save = h("button", { type: "submit", class: "small" }, "Save");
    const cancel = h("button", { type: "button", class: "secondary small", onClick: () => stopEditing() }, "Cancel");
    const form = h(
      "form",
      { class: "edit-form", novalidate: true, onSubmit: (event: SubmitEvent) => void submit(event) },
      h("label", { class: "visually-hidden", for: inputId }, `New destination for ${code}`),
      input,
      error,
      h("div", { class: "row" }, save, cancel),
    );
    form.addEventListener("keydown", (event) => {
      if (event.key === "Escape") stopEditing();
    });

    async function submit(event: SubmitEvent): Promise<void> {
      event.preventDefault();
      const longUrl = input.value.trim();
      if (!longUrl) return showError("Enter the new destination: a web address starting with http:// or https://.");
      save.disabled = cancel.disabled = true;
      try {
        record = await changeDestination(code, longUrl, host.credential());
        stopEditing();
        host.announce(`The destination of ${code} is now ${record.long_url}.`);
      } catch (caught) {
        save.disabled = cancel.disabled = false;
        if (!host.handled(caught)) showError(editError(caught));
      }
    }
    function showError(text: string): void {
      error.textContent = text;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }

    editButton.disabled = true;
    fill(destinationCell, form);
    input.focus();
    input.select();
  }

  function stopEditing(): void {
    showDestination();
    editButton.disabled = false;
    editButton.focus();
  }

  function askToDelete(): void {
    const error = h("p", { class: "message error", role: "alert" });
    const confirm = h("button", { type: "button", class: "danger small", onClick: () => void remove() }, "Yes, delete");
    const keep = h("button", { type: "button", class: "secondary small", onClick: () => cancelDelete() }, "Cancel");
    const question = h(
      "div",
      { class: "confirm-delete", role: "group", "aria-label": `Delete ${code}?` },
      h("p", {}, "Delete ", h("code", {}, code), "? Its visits go with it; this cannot be undone."),
      error,
      h("div", { class: "row" }, confirm, keep),
    );
    question.addEventListener("keydown", (event) => {
      if (event.key === "Escape") cancelDelete();
    });

    async function remove(): Promise<void> {
      confirm.disabled = keep.disabled = true;
      try {
        await deleteLink(code, host.credential());
        host.deleted(code);
      } catch (caught) {
        // Already gone (another admin, another tab): what was asked for is true.
        if (caught instanceof ApiError && caught.status === 404) return host.deleted(code);
        confirm.disabled = keep.disabled = false;
        if (!host.handled(caught)) error.textContent = caught instanceof ApiError ? caught.message : "The link could not be deleted.";
      }
    }

    fill(actionsCell, question);
    keep.focus();
  }

  function cancelDelete(): void {
    showActions();
    deleteButton.focus();
  }

  showDestination();
  showActions();
  showLastVisit(record.last_accessed_at);

  const checkbox = h("input", { type: "checkbox", class: "select-link", value: code, "aria-label": `Select ${code}` });
  const element = h(
    "tr",
    { "data-code": code },
    h("td", { class: "select" }, checkbox),
    h("td", { class: "code", "data-label": "Short link" }, h("a", { href: pageOf(code), class: "mono" }, code), badges(record)),
    destinationCell,
    h("td", { class: "number", "data-label": "Visits" }, formatCount(record.access_count)),
    h("td", { "data-label": "Created" }, when(record.created_at)),
    lastVisitCell,
    sparklineCell,
    actionsCell,
  );

  return {
    element,
    checkbox,
    record: () => record,
    showDailyVisits: (counts) => fill(sparklineCell, counts ? sparkline(counts) : h("span", { class: "muted" }, "—", hidden(" not available"))),
  };
}

/** What sets a link apart from one that simply redirects: gone (expired, used up), or behind a password. */
function badges(record: LinkRecord): HTMLElement | null {
  const gone = record.state !== "active" && h("span", { class: `badge ${record.state}` }, stateNames[record.state]);
  const locked = record.password_protected && h("span", { class: "badge protected" }, "Password");
  return gone || locked ? h("p", { class: "badges" }, gone, locked) : null;
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const hour = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

/** A moment as its date and its time, each kept on one line, so a narrow column breaks between them only. */
function when(iso: string): HTMLTimeElement | HTMLSpanElement {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h("span", { class: "muted" }, "unknown");
  return h("time", { datetime: iso }, h("span", {}, day.format(date)), " ", h("span", {}, hour.format(date)));
}

function pageOf(code: string): string {
  return `/app/links/${encodeURIComponent(code)}`;
}

/** The reason a new destination was refused, in plain words. */
function editError(error: unknown): string {
  if (!(error instanceof ApiError)) return "The destination could not be changed.";
  switch (error.code) {
    case "invalid_url":
    case "invalid_request":
      return `That destination cannot be used (${error.message.replace(/\.$/, "")}). Enter a full web address starting with http:// or https://.`;
    case "not_found":
      return "This link no longer exists.";
    case "forbidden":
      return "The server refused the change. Reload the page and try again.";
    default:
      return error.message;
  }
}
