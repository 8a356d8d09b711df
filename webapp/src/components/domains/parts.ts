import { defineParts } from "../../kit/parts.ts";

export const domainsParts = defineParts({
  domainsTitle: "h2",
  domainForm: "form",
  domainHost: "input",
  domainHostError: "p",
  domainNotFound: "input",
  domainNotFoundError: "p",
  domainExpired: "input",
  domainExpiredError: "p",
  domainFormError: "p",
  domainAdd: "button",
  domainsStatus: "p",
  domainsError: "p",
  domainsTable: "table",
  domainsBody: "tbody",
  domainQuestionTemplate: "template",
});
