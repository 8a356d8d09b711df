import { defineParts } from "../../kit/parts.ts";

/** The form that changes where a link goes. */
export const linkDestinationParts = defineParts({ editForm: "form", newUrl: "input", editButton: "button", editStatus: "p" });
