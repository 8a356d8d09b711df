/**
 * The QR kit (components/qr-kit) for a page script that finds it on its own,
 * as the admin's QR dialog does, and the files of a QR code, which the home
 * page's result offers.
 */
import { mountQrKit, type QrKit } from "../../components/qr-kit/script.ts";
import { rootOf } from "./find-parts.ts";

export { offerQrFiles } from "./qr-files.ts";
export type { QrKit };

/** The page's one QR kit, mounted on its root. */
export function qrKit(): QrKit {
  return mountQrKit(rootOf("qr-kit"));
}
