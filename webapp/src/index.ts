// The web app as the gateway serves it: its routes, the pages it puts in
// place of an error for a person, and the bundled browser code.
export { apiDocsPage } from "./pages/api-docs-page.ts";
export { renderPage, type Page } from "./page-shell.ts";
export { present, type AnswerSource } from "./present.ts";
export { buildWebAssets, type WebAssets } from "./web-assets.ts";
export { webRoutes, type PageQuestions } from "./web-routes.ts";
