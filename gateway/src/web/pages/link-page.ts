import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

export const linkPage: Page = {
  title: "Link",
  current: "links",
  script: "link",
  main: html`<h1>Link</h1>`,
};
