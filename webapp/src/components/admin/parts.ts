import { defineParts } from "../../kit/parts.ts";

/** The admin page's own elements, and the roots of the components it is made of. */
export const adminParts = defineParts({
  checking: "p",
  failure: "p",
  outage: "div",
  signIn: "section",
  adminView: "div",
  who: "p",
  adminName: "strong",
  signOut: "button",
  signOutError: "p",
  summary: "section",
  reports: "section",
  links: "section",
  qrDialog: "dialog",
  linkImport: "section",
  apiKeys: "section",
  domains: "section",
});
