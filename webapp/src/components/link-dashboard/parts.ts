import { defineParts } from "../../kit/parts.ts";

/** A link's page: its heading and status, its three states (the link, missing, deleted), and the roots of the components it holds. */
export const linkDashboardParts = defineParts({
  linkHeading: "h1",
  linkStatus: "p",
  linkMissing: "section",
  linkDeleted: "section",
  linkView: "div",
  summaryRoot: "section",
  accessRoot: "section",
  visitsRoot: "section",
  qrRoot: "div",
  manageRoot: "section",
  destinationRoot: "div",
  optionsRoot: "div",
  deleteRoot: "div",
});
