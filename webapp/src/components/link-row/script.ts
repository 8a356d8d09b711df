/**
 * One row of the admin's table of links (view.ts): what the link is, and its
 * menu: open its page, copy the short link, its QR code, change its
 * destination in the row, delete it after a second question in the row. The
 * form and the question open in the row's panel, across the cells from the
 * destination to the sparkline, so whatever they say stays in the row.
 */
import { addressOf, deleteLink, type LinkRecord } from "../../client/lib/admin-links.ts";
import { linkPage, type LinkAddress } from "../../client/lib/link-address.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { cloneTemplate } from "../../client/lib/clone-template.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount } from "../../client/lib/format.ts";
import { stateNames } from "../../client/lib/link-options.ts";
import { destinationLink } from "../../client/lib/readable-destination.ts";
import { sparkline } from "../../client/lib/sparkline.ts";
import { mount as mountMenu, type ActionMenu } from "../action-menu/script.ts";
import { focusCancel, mount as mountQuestion } from "../confirm-question/script.ts";
import { mount as mountEdit } from "../destination-edit/script.ts";
import { cellsUnderPanel, linkRowParts } from "./parts.ts";

export interface RowHost {
  /** The signed-in admin's credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Shows the link's QR kit (a dialog); `from` gets the focus back when it closes. */
  showQr(record: LinkRecord, from: HTMLElement): void;
  /** Tells everyone what just happened ("Copied …"). */
  announce(text: string): void;
  deleted(code: string): void;
  /** Handles what is not the row's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  /** The table shows only the links with this tag. */
  filterByTag(tag: string): void;
  /** The markup the row copies: the destination's form and the question before deleting. */
  templates: { edit: HTMLTemplateElement; question: HTMLTemplateElement };
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

type RowParts = FoundParts<typeof linkRowParts.spec>;

const hidden = (text: string) => h("span", { class: "visually-hidden" }, text);

export function mount(template: HTMLTemplateElement, initial: LinkRecord, host: RowHost): LinkRow {
  const element = cloneTemplate<HTMLTableRowElement>(template);
  const ui = findParts(element, linkRowParts);
  const code = initial.short_url;
  // Found on its domain, always (the page's host may be any domain's); named with its host when that is not the page's.
  const address: LinkAddress = addressOf(initial);
  const name = initial.domain === location.hostname ? code : `${initial.domain}/${code}`;
  let record = initial;
  element.dataset.code = code;
  element.dataset.domain = initial.domain;
  ui.rowSelect.value = name;
  ui.rowSelect.setAttribute("aria-label", `Select ${name}`);
  ui.rowCode.href = ui.rowOpen.href = linkPage(address);
  ui.rowCode.textContent = name;
  showRecord(ui, record, host);

  const menu = mountMenu(ui.rowActions, name);
  const closePanel = () => {
    showPanel(ui, null);
    menu.button.focus();
  };
  ui.rowCopy.addEventListener("click", () => void copyLink(record, host));
  ui.rowQr.addEventListener("click", () => host.showQr(record, menu.button));
  ui.rowEdit.addEventListener("click", () => {
    const form = mountEdit(host.templates.edit, record, {
      credential: host.credential,
      handled: host.handled,
      cancelled: closePanel,
      saved(changed, addedScheme) {
        record = { ...record, ...changed };
        showRecord(ui, record, host);
        closePanel();
        host.announce(`The destination of ${name} is now ${record.long_url}${addedScheme ? " (https:// added)" : ""}.`);
      },
    });
    showPanel(ui, form);
    form.querySelector("input")?.select();
  });
  ui.rowDelete.addEventListener("click", () => askToDelete(ui, address, name, host, menu, closePanel));

  return {
    element,
    checkbox: ui.rowSelect,
    record: () => record,
    showDailyVisits: (counts) => fill(ui.rowSpark, counts ? sparkline(counts) : h("span", { class: "muted" }, "—", hidden(" not available"))),
  };
}

function askToDelete(ui: RowParts, address: LinkAddress, name: string, host: RowHost, menu: ActionMenu, closePanel: () => void): void {
  const question = mountQuestion(host.templates.question, {
    label: `Delete ${name}?`,
    text: ["Delete ", h("code", {}, name), "? Its visits go with it; this cannot be undone."],
    yes: "Yes, delete",
    cancelled: closePanel,
    async act() {
      try {
        await deleteLink(address, host.credential());
      } catch (error) {
        // Already gone (another admin, another tab): what was asked for is true.
        if (!(error instanceof ApiError && error.status === 404)) {
          return host.handled(error) ? null : error instanceof ApiError ? error.message : "The link could not be deleted.";
        }
      }
      menu.button.disabled = true;
      host.deleted(name);
      return null;
    },
  });
  showPanel(ui, question);
  focusCancel(question);
}

/** Opens the row's panel with `content` in place of the cells from the destination to the sparkline, or closes it (null). */
function showPanel(ui: RowParts, content: HTMLElement | null): void {
  for (const cell of cellsUnderPanel) ui[cell].hidden = content !== null;
  ui.rowPanel.hidden = content === null;
  fill(ui.rowPanel, content);
  if (content) content.querySelector<HTMLElement>("input, button")?.focus();
}

async function copyLink(record: LinkRecord, host: RowHost): Promise<void> {
  try {
    await navigator.clipboard.writeText(record.link);
    host.announce(`Copied ${record.link}.`);
  } catch {
    host.announce(`Copying was refused by the browser: the short link is ${record.link}.`);
  }
}

function showRecord(ui: RowParts, record: LinkRecord, host: RowHost): void {
  const gone = record.state !== "active" && h("span", { class: `badge ${record.state}` }, stateNames[record.state]);
  const locked = record.password_protected && h("span", { class: "badge protected" }, "Password");
  fill(ui.rowBadges, gone, locked);
  ui.rowBadges.hidden = !gone && !locked;
  fill(ui.rowTitle, record.title ? record.title : none("no title"));
  fill(ui.rowDestination, record.long_url === null ? none("hidden") : destinationLink(record.long_url));
  fill(ui.rowTags, record.tags.length === 0 ? none("no tags") : tagList(record.tags, host));
  ui.rowVisits.textContent = formatCount(record.access_count);
  fill(ui.rowCreated, when(record.created_at));
  fill(ui.rowLastVisit, record.last_accessed_at ? when(record.last_accessed_at) : h("span", { class: "muted" }, "never"));
}

const none = (said: string) => h("span", { class: "muted" }, h("span", { "aria-hidden": "true" }, "—"), hidden(said));

function tagList(tags: readonly string[], host: RowHost): HTMLElement {
  return h(
    "ul",
    { class: "tag-list" },
    tags.map((tag) =>
      h("li", {}, h("button", { type: "button", class: "tag", title: `Show only the links tagged ${tag}`, onClick: () => host.filterByTag(tag) }, tag)),
    ),
  );
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const hour = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

/** A moment as its date and its time, each kept on one line, so a narrow column breaks between them only. */
function when(iso: string): HTMLTimeElement | HTMLSpanElement {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h("span", { class: "muted" }, "unknown");
  return h("time", { datetime: iso }, h("span", {}, day.format(date)), " ", h("span", {}, hour.format(date)));
}
