import { workspacesView } from "../components/workspaces/view.ts";
import type { Page } from "../page-shell.ts";

/** The workspaces page, for people: one component (components/workspaces), its script client/workspaces.ts. */
export const workspacesPage: Page = {
  title: "Workspaces",
  current: "workspaces",
  script: "workspaces",
  main: workspacesView(),
};
