import { defineParts } from "../../kit/parts.ts";

/** The link's card: its short link and copy button, badges, title, destination, counts, options, and who is looking. */
export const linkSummaryParts = defineParts({
  shortUrl: "input",
  copyShort: "button",
  copyShortStatus: "p",
  badges: "p",
  linkTitle: "p",
  destination: "a",
  destinationHidden: "span",
  visitCount: "dd",
  createdAt: "dd",
  lastVisit: "dd",
  optionList: "dl",
  accessNote: "p",
});
