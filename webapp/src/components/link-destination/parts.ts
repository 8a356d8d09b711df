import { defineParts } from "../../kit/parts.ts";

/** The form that changes where a link goes, and the UTM builder on its field. */
export const linkDestinationParts = defineParts({ editForm: "form", newUrl: "input", utm: "details", editButton: "button", editStatus: "p" });
