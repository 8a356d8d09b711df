import { defineParts } from "../../kit/parts.ts";

export const visitSummaryParts = defineParts({ summaryOff: "p", summaryFigures: "div", summaryTotals: "dl", summaryTop: "ol" });
