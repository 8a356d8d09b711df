import { defineParts } from "../../kit/parts.ts";

/** The registered geocoders: their list, and why it could not be loaded. */
export const geocoderListParts = defineParts({ list: "ul", error: "div" });
