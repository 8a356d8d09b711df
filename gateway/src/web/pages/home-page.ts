import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

export const homePage: Page = {
  title: "Shorten a URL",
  current: "home",
  script: "home",
  main: html`<h1>Shorten a URL</h1>`,
};
