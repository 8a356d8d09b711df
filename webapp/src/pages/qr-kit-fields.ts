import { qrKitView } from "../components/qr-kit/view.ts";

/** The QR kit's markup (components/qr-kit), as the admin page's QR dialog places it. */
export const qrKitFields = qrKitView();
