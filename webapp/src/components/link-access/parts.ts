import { defineParts } from "../../kit/parts.ts";

/** The manage-token form of a link's page. */
export const linkAccessParts = defineParts({ tokenForm: "form", tokenInput: "input", tokenButton: "button" });
