import { defineParts } from "../../kit/parts.ts";

/** The result card's parts its script fills (view.ts marks them). */
export const shortenResultParts = defineParts({
  heading: "h2",
  url: "textarea",
  copyLink: "button",
  share: "button",
  open: "a",
  copyLinkStatus: "p",
  destination: "span",
  schemeNote: "p",
  linkPage: "a",
  qr: "div",
  downloadSvg: "a",
  downloadPng: "a",
  token: "textarea",
  copyToken: "button",
  copyTokenStatus: "p",
});
