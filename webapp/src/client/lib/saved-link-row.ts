/**
 * One saved link as a row of a list (the home page's latest, Your links):
 * its short link, leading to the link's page; its state as badges (expired,
 * used up, password, deleted); where it goes; its visits; a Copy button and
 * its QR code, drawn when first asked for; and, for a link that no longer
 * exists, a Forget button instead. Built from text nodes only: what storage
 * or the API holds never becomes markup.
 */
import { linkPage } from "./link-address.ts";
import { copyText } from "./copy-text.ts";
import { fill, h } from "./dom.ts";
import { formatDateTime, plural } from "./format.ts";
import { stateNames } from "./link-options.ts";
import type { OfferedFiles } from "./offered-files.ts";
import { plainLook, qrCode, qrSvg } from "./qr-code.ts";
import { offerQrFiles } from "./qr-files.ts";
import { readableUrl } from "./readable-url.ts";
import type { LinkStats } from "./saved-link-stats.ts";
import { savedAddress, savedName, type SavedLink } from "./saved-links.ts";

/** What the API said of a link: its stats, null when it no longer exists, "counting" until it answers, undefined when it could not. */
export type RowStats = LinkStats | null | "counting" | undefined;

export interface SavedLinkRowDeps {
  /** The files the rows' QR codes offer, cleared when the list is drawn again. */
  files: OfferedFiles;
  /** Forgets a link that no longer exists: the list is drawn again without it. */
  forget(link: SavedLink): void;
}

export function savedLinkRow(link: SavedLink, stats: RowStats, deps: SavedLinkRowDeps): HTMLLIElement {
  const status = h("p", { class: "copy-status", "aria-live": "polite" });
  // Its name: the code, or host/code on another domain, where the same code may be saved twice.
  const name = savedName(link);
  const qrPanel = h("div", { class: "saved-link-qr", id: `saved-qr-${name}`, hidden: true });
  const gone = stats === null;
  const actions = gone
    ? [h("button", { type: "button", class: "secondary small", "aria-label": `Forget ${name}`, onClick: () => deps.forget(link) }, "Forget")]
    : [
        h("button", { type: "button", class: "secondary small", "aria-label": `Copy ${name}`, onClick: () => void copyText(link.link, status) }, "Copy"),
        qrToggle(link, qrPanel, deps.files),
      ];
  return h(
    "li",
    { class: "saved-link", "data-code": link.short_url },
    h(
      "div",
      { class: "saved-link-main" },
      h(
        "a",
        { class: "saved-link-title", href: linkPage(savedAddress(link)) },
        link.link.replace(/^https?:\/\//, ""),
        h("span", { class: "visually-hidden" }, ": visits and settings"),
      ),
      badges(stats),
      h("p", { class: "saved-link-destination truncate", title: link.long_url }, readableUrl(link.long_url)),
      h("p", { class: "hint" }, `Created ${formatDateTime(link.created_at)}`),
    ),
    h(
      "div",
      { class: "saved-link-side" },
      h("p", { class: "saved-link-count" }, countOf(stats)),
      h("div", { class: "row saved-link-actions" }, actions),
      status,
    ),
    qrPanel,
  );
}

function countOf(stats: RowStats): HTMLElement | null {
  if (stats === null) return null;
  if (stats === "counting") return h("span", { class: "muted" }, "Counting…");
  if (stats === undefined) return h("span", { class: "muted" }, "count unavailable");
  return h("span", { class: "count" }, plural(stats.access_count, "visit"));
}

/** The link's state, as the link page and the admin table badge it; none for an active link without a password. */
function badges(stats: RowStats): HTMLElement | null {
  if (stats === null) return h("p", { class: "badges" }, h("span", { class: "badge deleted" }, "Deleted"));
  if (stats === undefined || stats === "counting") return null;
  const state = stats.state && stats.state !== "active" ? h("span", { class: `badge ${stats.state}` }, stateNames[stats.state]) : null;
  const locked = stats.password_protected ? h("span", { class: "badge protected" }, "Password") : null;
  return state || locked ? h("p", { class: "badges" }, state, locked) : null;
}

/** The QR code button: shows and hides the code under the row, drawn (and its files made) the first time. */
function qrToggle(link: SavedLink, panel: HTMLElement, files: OfferedFiles): HTMLButtonElement {
  const button = h(
    "button",
    { type: "button", class: "secondary small", "aria-expanded": "false", "aria-controls": panel.id, "aria-label": `QR code of ${savedName(link)}` },
    "QR code",
  );
  let drawn: Promise<void> | undefined;
  button.addEventListener("click", () => {
    if (drawn === undefined)
      drawn = drawQr(link, panel, files).catch(() => {
        drawn = undefined;
        fill(panel, h("p", { class: "muted" }, "The QR code could not be drawn: try again."));
      });
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
  });
  return button;
}

async function drawQr(link: SavedLink, panel: HTMLElement, files: OfferedFiles): Promise<void> {
  const qr = await qrCode(link.link);
  const svg = h("a", { class: "button secondary small", download: "" }, "Download SVG");
  const png = h("a", { class: "button secondary small", download: "" }, "Download PNG");
  offerQrFiles(files, qr, plainLook, { svg, png }, link.short_url);
  fill(panel, h("div", { class: "qr" }, qrSvg(qr, `QR code of ${link.link}`)), h("div", { class: "row" }, svg, png));
}
