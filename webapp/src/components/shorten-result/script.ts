/**
 * The result card (view.ts): the link just made, shown once, its QR code
 * drawn in the page and offered as SVG and PNG files.
 */
import { copyButton } from "../../client/lib/copy-text.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import { plainLook, qrCode, qrSvg } from "../../client/lib/qr-code.ts";
import { offerQrFiles } from "../../client/lib/qr-files.ts";
import { readableUrl } from "../../client/lib/readable-url.ts";
import { linkPage } from "../../client/lib/link-address.ts";
import { shortenResultParts } from "./parts.ts";

/** What the card shows of a link just made. */
export interface CreatedLink {
  short_url: string;
  link: string;
  long_url: string;
  manage_token: string;
}

export interface ShortenResult {
  show(created: CreatedLink, addedScheme: boolean): void;
  hide(): void;
}

type Parts = FoundParts<typeof shortenResultParts.spec>;

export function mount(root: HTMLElement): ShortenResult {
  const parts = findParts(root, shortenResultParts);
  const downloads = new OfferedFiles();
  copyButton(parts.copyLink, parts.url, parts.copyLinkStatus);
  copyButton(parts.copyToken, parts.token, parts.copyTokenStatus);
  parts.share.addEventListener("click", () => {
    // A person who closes the share sheet is no error to report.
    navigator.share({ url: parts.url.value }).catch(() => {});
  });
  return {
    show(created, addedScheme) {
      fillCard(parts, created, addedScheme);
      // The previous result's files are no longer offered: free them.
      downloads.clear();
      fill(parts.qr);
      void qrCode(created.link).then(
        (qr) => {
          fill(parts.qr, qrSvg(qr, `QR code of ${created.link}`));
          offerQrFiles(downloads, qr, plainLook, { svg: parts.downloadSvg, png: parts.downloadPng }, created.short_url);
        },
        () => fill(parts.qr, h("p", { class: "muted" }, "The QR code could not be drawn: reload the page.")),
      );
      root.hidden = false;
      fitToText(parts.url);
      fitToText(parts.token);
      parts.heading.focus();
    },
    hide() {
      root.hidden = true;
    },
  };
}

function fillCard(parts: Parts, created: CreatedLink, addedScheme: boolean): void {
  parts.url.value = created.link;
  parts.open.href = created.link;
  // Phones (and some desktops) hand the link to another app; elsewhere Copy does it.
  parts.share.hidden = typeof navigator.share !== "function";
  parts.destination.textContent = readableUrl(created.long_url);
  parts.destination.title = created.long_url;
  parts.schemeNote.hidden = !addedScheme;
  parts.linkPage.href = linkPage({ code: created.short_url });
  parts.token.value = created.manage_token;
  parts.copyLinkStatus.textContent = "";
  parts.copyTokenStatus.textContent = "";
}

/**
 * A read-only field as tall as its text, so none of it is cut: the
 * stylesheet's `field-sizing: content` does it where the browser has it;
 * elsewhere the height is set once from the text, at the width shown.
 */
function fitToText(field: HTMLTextAreaElement): void {
  if (CSS.supports("field-sizing", "content")) return;
  field.style.height = "auto";
  field.style.height = `${field.scrollHeight + field.offsetHeight - field.clientHeight}px`;
}
