import { defineParts } from "../../kit/parts.ts";

export const qrDialogParts = defineParts({ qrTitle: "h2", qrClose: "button", qrLink: "p", qrKitRoot: "div" });
