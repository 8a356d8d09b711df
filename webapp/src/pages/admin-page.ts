import { adminView } from "../components/admin/view.ts";
import type { Page } from "../page-shell.ts";

/** The admin page: one component (components/admin), its script client/admin.ts. */
export const adminPage: Page = {
  title: "Admin",
  current: "admin",
  script: "admin",
  main: adminView(),
};
