import { defineParts } from "../../kit/parts.ts";

/** The "not available right now" panel's parts its script works with. */
export const tryAgainParts = defineParts({ status: "p", stop: "button" });
