import { defineParts } from "../../kit/parts.ts";

export const workspacesParts = defineParts({
  checking: "p",
  failure: "p",
  outage: "div",
  signIn: "section",
  personView: "div",
  who: "p",
  personName: "strong",
  signOut: "button",
  signOutError: "p",
  switcher: "section",
  current: "div",
  links: "section",
  members: "section",
  apiKeys: "section",
  audit: "section",
});
