import { defineParts } from "../../kit/parts.ts";

export const workspaceMembersParts = defineParts({
  title: "h2",
  status: "p",
  error: "p",
  body: "tbody",
  inviteForm: "form",
  inviteRole: "select",
  inviteCreate: "button",
  inviteError: "p",
  invite: "div",
  inviteTitle: "h3",
  inviteLink: "input",
  inviteCopy: "button",
  inviteCopyStatus: "p",
  inviteExpires: "span",
  inviteDone: "button",
  questionTemplate: "template",
});
