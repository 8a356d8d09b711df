import type { LinkRecord } from "../../client/lib/admin-links.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { mountQrKit } from "../qr-kit/script.ts";
import { qrDialogParts } from "./parts.ts";

export interface QrDialog {
  /** Shows the link's QR kit; `from` gets the focus back when the dialog closes. */
  show(record: LinkRecord, from: HTMLElement): void;
}

/** Escape or Close shuts the dialog, and the focus goes back to what opened it. */
export function mount(root: HTMLDialogElement): QrDialog {
  const ui = findParts(root, qrDialogParts);
  const kit = mountQrKit(ui.qrKitRoot);
  let opener: HTMLElement | null = null;
  ui.qrClose.addEventListener("click", () => root.close());
  root.addEventListener("close", () => opener?.focus());
  return {
    show(record, from) {
      opener = from;
      ui.qrTitle.textContent = `QR code of ${record.short_url}`;
      ui.qrLink.textContent = record.link;
      kit.show(record.link, record.short_url);
      root.showModal();
    },
  };
}
