import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionTemplate } from "../confirm-question/view.ts";
import { domainsParts as ui } from "./parts.ts";

/** The domains: the hosts links are served on, the form that adds one, and each one's deletion (script.ts). */
export function domainsView(mark: SafeHtml): SafeHtml {
  return html`<section id="domains" class="panel" aria-labelledby="domains-title" ${mark}>
  <h2 id="domains-title" tabindex="-1" ${ui.mark("domainsTitle")}>Domains</h2>
  <p class="hint">Hosts your short links are served on, besides the default one. Point the host's DNS at this service first; a code is unique per host.</p>
  <form id="domain-form" class="key-form" method="post" novalidate aria-labelledby="domain-form-title" ${ui.mark("domainForm")}>
    <h3 id="domain-form-title">New domain</h3>
    <div class="field">
      <label for="domain-host">Host</label>
      <input id="domain-host" name="host" type="text" maxlength="253" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="go.example.com" aria-describedby="domain-host-error" ${ui.mark("domainHost")}>
      <p id="domain-host-error" class="field-error" role="alert" ${ui.mark("domainHostError")}></p>
    </div>
    <div class="field">
      <label for="domain-not-found">Address for unknown links <span class="optional">(optional)</span></label>
      <input id="domain-not-found" name="not_found_url" type="url" autocomplete="off" spellcheck="false" placeholder="https://example.com/" aria-describedby="domain-not-found-error" ${ui.mark("domainNotFound")}>
      <p id="domain-not-found-error" class="field-error" role="alert" ${ui.mark("domainNotFoundError")}></p>
    </div>
    <div class="field">
      <label for="domain-expired">Address once a link expired or is used up <span class="optional">(optional)</span></label>
      <input id="domain-expired" name="expired_url" type="url" autocomplete="off" spellcheck="false" placeholder="https://example.com/gone" aria-describedby="domain-expired-error" ${ui.mark("domainExpired")}>
      <p id="domain-expired-error" class="field-error" role="alert" ${ui.mark("domainExpiredError")}></p>
    </div>
    <p id="domain-form-error" class="message error" role="alert" ${ui.mark("domainFormError")}></p>
    <button type="submit" id="domain-add" ${ui.mark("domainAdd")}>Add domain</button>
  </form>
  <p id="domains-status" class="message ok" role="status" ${ui.mark("domainsStatus")}></p>
  <p id="domains-error" class="message error" role="alert" ${ui.mark("domainsError")}></p>
  <div class="table-wrap">
    <table id="domains-table" class="link-table keys-table" aria-labelledby="domains-title" ${ui.mark("domainsTable")}>
      <thead>
        <tr><th scope="col">Host</th><th scope="col">Unknown links go to</th><th scope="col">Expired links go to</th><th scope="col">Added</th><th scope="col">Actions</th></tr>
      </thead>
      <tbody id="domains-body" ${ui.mark("domainsBody")}></tbody>
    </table>
  </div>
  ${confirmQuestionTemplate(ui.mark("domainQuestionTemplate"))}
</section>`;
}
