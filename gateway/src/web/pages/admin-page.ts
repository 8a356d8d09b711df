import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

export const adminPage: Page = {
  title: "Admin",
  current: "admin",
  script: "admin",
  main: html`<h1>Admin</h1>`,
};
