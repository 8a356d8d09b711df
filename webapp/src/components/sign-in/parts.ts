import { defineParts } from "../../kit/parts.ts";

export const signInParts = defineParts({
  signInForm: "form",
  signInUsername: "input",
  signInPassword: "input",
  signInStatus: "p",
  signInError: "p",
  signInButton: "button",
});
