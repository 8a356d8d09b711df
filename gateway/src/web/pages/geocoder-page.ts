import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

export const geocoderPage: Page = {
  title: "Geocoder playground",
  current: "geocoder",
  script: "geocoder",
  main: html`<h1>Geocoder playground</h1>`,
};
