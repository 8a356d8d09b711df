import { defineParts } from "../../kit/parts.ts";

/** The home page's latest links: the parts its script fills (view.ts marks them). */
export const latestLinksParts = defineParts({ heading: "h2", empty: "p", list: "ul", allRow: "p", all: "a" });
