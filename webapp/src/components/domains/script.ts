/**
 * The admin page's domains (docs/domains.md): the table of the hosts links
 * are served on, the default one first; the form that adds one (its host,
 * and where an unknown or used-up link on it sends a visitor); and each
 * added one's deletion after a second question in its row. A domain with
 * links is asked about again, naming what goes with it: its links, their
 * counts and visits.
 */
import { addDomain, deleteDomain, listDomains, type DomainRecord, type NewDomain } from "../../client/lib/admin-domains.ts";
import { ApiError, type Credential } from "../../client/lib/api.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatDateTime } from "../../client/lib/format.ts";
import { focusCancel, mount as mountQuestion } from "../confirm-question/script.ts";
import type { Outage } from "../outage-notice/script.ts";
import { domainsParts } from "./parts.ts";

export interface DomainsDeps {
  /** The signed-in admin's credential for changes (the cookie goes by itself; this adds the CSRF token). */
  credential(): Credential;
  /** Handles what is not the panel's business (the session ended); true when it did. */
  handled(error: unknown): boolean;
  outage: Outage;
}

type Parts = FoundParts<typeof domainsParts.spec>;
type FieldName = "host" | "not_found_url" | "expired_url";

export function mount(root: HTMLElement, deps: DomainsDeps): Domains {
  return new Domains(findParts(root, domainsParts), deps);
}

export class Domains {
  private loading: AbortController | null = null;

  constructor(
    private readonly ui: Parts,
    private readonly deps: DomainsDeps,
  ) {
    ui.domainForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  /** Lists the domains (signed in). */
  async load(): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.ui.domainsTable.setAttribute("aria-busy", "true");
    try {
      const domains = await listDomains(controller.signal);
      this.deps.outage.answered("domains");
      this.ui.domainsError.textContent = "";
      fill(
        this.ui.domainsBody,
        domains.map((domain) => this.row(domain)),
      );
    } catch (error) {
      if (controller.signal.aborted || this.deps.handled(error) || this.deps.outage.retryLater("domains", error, () => this.load())) return;
      this.ui.domainsError.textContent = error instanceof ApiError ? `The domains could not be loaded: ${error.message}` : "The domains could not be loaded.";
    } finally {
      if (this.loading === controller) this.ui.domainsTable.removeAttribute("aria-busy");
    }
  }

  /** Forgets everything shown (signed out). */
  clear(): void {
    this.loading?.abort();
    this.clearErrors();
    this.ui.domainForm.reset();
    fill(this.ui.domainsBody);
    this.ui.domainsStatus.textContent = "";
    this.ui.domainsError.textContent = "";
  }

  private async submit(): Promise<void> {
    const { ui } = this;
    this.clearErrors();
    ui.domainsStatus.textContent = "";
    const host = ui.domainHost.value.trim();
    if (!host) return this.fieldError("host", "Enter the host, like go.example.com.");
    const input: NewDomain = { host };
    const notFound = ui.domainNotFound.value.trim();
    const expired = ui.domainExpired.value.trim();
    if (notFound) input.not_found_url = notFound;
    if (expired) input.expired_url = expired;
    ui.domainAdd.disabled = true;
    try {
      const added = await addDomain(input, this.deps.credential());
      ui.domainForm.reset();
      ui.domainsStatus.textContent = `Domain ${added.host} added: links made on it are served on it.`;
      void this.load();
    } catch (error) {
      if (this.deps.handled(error)) return;
      const field = fieldOf(error);
      if (field) this.fieldError(field, sentence(error instanceof ApiError ? error.message : ""));
      else ui.domainFormError.textContent = error instanceof ApiError ? `The domain could not be added: ${error.message}` : "The domain could not be added.";
    } finally {
      ui.domainAdd.disabled = false;
    }
  }

  private fieldError(field: FieldName, message: string): void {
    const { ui } = this;
    const [error, input] =
      field === "host"
        ? [ui.domainHostError, ui.domainHost]
        : field === "not_found_url"
          ? [ui.domainNotFoundError, ui.domainNotFound]
          : [ui.domainExpiredError, ui.domainExpired];
    error.textContent = message;
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }

  private clearErrors(): void {
    const { ui } = this;
    for (const error of [ui.domainFormError, ui.domainHostError, ui.domainNotFoundError, ui.domainExpiredError]) error.textContent = "";
    for (const input of [ui.domainHost, ui.domainNotFound, ui.domainExpired]) input.removeAttribute("aria-invalid");
  }

  private row(domain: DomainRecord): HTMLTableRowElement {
    const actions = h("td", { class: "actions" });
    if (domain.default) fill(actions, h("span", { class: "badge" }, "Default"));
    else {
      const deleteButton = h(
        "button",
        { type: "button", class: "secondary small delete" },
        "Delete",
        h("span", { class: "visually-hidden" }, ` ${domain.host}`),
      );
      deleteButton.addEventListener("click", () => this.askToDelete(domain, actions, deleteButton, false));
      fill(actions, deleteButton);
    }
    const none = () => h("span", { class: "muted" }, domain.default ? "the not-found page" : "none");
    return h(
      "tr",
      { "data-domain-id": String(domain.id) },
      h("td", { class: "code", "data-label": "Host" }, domain.host),
      h("td", { "data-label": "Unknown links go to" }, domain.not_found_url ?? none()),
      h("td", { "data-label": "Expired links go to" }, domain.expired_url ?? h("span", { class: "muted" }, "none")),
      h("td", { "data-label": "Added" }, formatDateTime(domain.created_at)),
      actions,
    );
  }

  /** Asks before deleting; a domain the API says has links is asked about again, and deleted with them only then. */
  private askToDelete(domain: DomainRecord, actions: HTMLElement, deleteButton: HTMLButtonElement, withLinks: boolean): void {
    const question = mountQuestion(this.ui.domainQuestionTemplate, {
      label: `Delete ${domain.host}?`,
      text: withLinks
        ? [h("strong", {}, domain.host), " has links. Delete it with every one of them, their counts and visits? This cannot be undone."]
        : ["Delete ", h("strong", {}, domain.host), "? Its links stop working on it."],
      yes: withLinks ? "Yes, delete it and its links" : "Yes, delete",
      cancelled: () => {
        fill(actions, deleteButton);
        deleteButton.focus();
      },
      act: async () => {
        try {
          await deleteDomain(domain.id, withLinks, this.deps.credential());
        } catch (error) {
          if (error instanceof ApiError && error.status === 409 && !withLinks) {
            this.askToDelete(domain, actions, deleteButton, true);
            return null;
          }
          // Already gone (another admin, another tab): what was asked for is true.
          if (!(error instanceof ApiError && error.status === 404)) {
            return this.deps.handled(error) ? null : error instanceof ApiError ? error.message : "The domain could not be deleted.";
          }
        }
        this.ui.domainsStatus.textContent = `Domain ${domain.host} deleted${withLinks ? ", with its links" : ""}.`;
        this.ui.domainsTitle.focus();
        void this.load();
        return null;
      },
    });
    fill(actions, question);
    focusCancel(question);
  }
}

/** The field an API 400 names (`host must be …`, `not_found_url must …`), if it is one of the form's. */
function fieldOf(error: unknown): FieldName | undefined {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return undefined;
  if (error.status === 409) return "host";
  return /^(host|not_found_url|expired_url)\b/.exec(error.message)?.[1] as FieldName | undefined;
}

const fieldWords: Record<FieldName, string> = {
  host: "the host",
  not_found_url: "the address for unknown links",
  expired_url: "the address for expired links",
};

/** The API's message in the form's words: "host must be …" is "The host must be …." */
function sentence(message: string): string {
  const text = message.replace(/^(host|not_found_url|expired_url)\b/, (field) => fieldWords[field as FieldName]);
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
