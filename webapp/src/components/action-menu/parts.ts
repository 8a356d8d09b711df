import { defineParts } from "../../kit/parts.ts";

export const actionMenuParts = defineParts({ menuButton: "button", menuFor: "span", menu: "div" });
