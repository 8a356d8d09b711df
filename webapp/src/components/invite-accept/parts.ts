import { defineParts } from "../../kit/parts.ts";

export const inviteAcceptParts = defineParts({
  checking: "p",
  failure: "p",
  joinAs: "section",
  joinName: "strong",
  join: "button",
  joinError: "p",
  signOut: "button",
  newAccount: "section",
  accountForm: "form",
  accountUsername: "input",
  accountPassword: "input",
  accountError: "p",
  accountCreate: "button",
  haveAccount: "p",
  signIn: "section",
});
