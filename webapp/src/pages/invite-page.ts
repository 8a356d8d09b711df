import { inviteAcceptView } from "../components/invite-accept/view.ts";
import type { Page } from "../page-shell.ts";

/** The page an invite link opens: one component (components/invite-accept), its script client/invite.ts. */
export const invitePage: Page = {
  title: "Join a workspace",
  current: "workspaces",
  script: "invite",
  main: inviteAcceptView(),
};
