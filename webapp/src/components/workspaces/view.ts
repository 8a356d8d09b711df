import { html, type SafeHtml } from "../../html.ts";
import { apiKeysView, workspaceKeyScopes } from "../api-keys/view.ts";
import { auditLogView } from "../audit-log/view.ts";
import { outageNoticeView } from "../outage-notice/view.ts";
import { signInView } from "../sign-in/view.ts";
import { workspaceLinksView } from "../workspace-links/view.ts";
import { workspaceMembersView } from "../workspace-members/view.ts";
import { workspaceSwitcherView } from "../workspace-switcher/view.ts";
import { workspacesParts as ui } from "./parts.ts";

/**
 * The workspaces page, for people (docs/people.md). Both views start
 * hidden: the script asks `GET /login/session` who is signed in, then
 * shows the sign-in form or the person's workspaces, the chosen one's
 * links, members, keys and (for its owners) audit log.
 */
export function workspacesView(): SafeHtml {
  return html`<div id="workspaces" class="admin workspaces">
<h1>Workspaces</h1>
<p class="muted" role="status" ${ui.mark("checking")}>Checking whether you are signed in…</p>
<noscript><p class="message error">The workspaces page needs JavaScript.</p></noscript>
<p class="message error" role="alert" ${ui.mark("failure")}></p>
${outageNoticeView(ui.mark("outage"))}
${signInView(ui.mark("signIn"))}
<div hidden ${ui.mark("personView")}>
  <div class="row spread admin-bar">
    <p tabindex="-1" ${ui.mark("who")}>Signed in as <strong ${ui.mark("personName")}></strong></p>
    <button type="button" class="secondary small" ${ui.mark("signOut")}>Sign out</button>
  </div>
  <p class="message error" role="alert" ${ui.mark("signOutError")}></p>
  ${workspaceSwitcherView(ui.mark("switcher"))}
  <div hidden ${ui.mark("current")}>
    ${workspaceLinksView(ui.mark("links"))}
    ${workspaceMembersView(ui.mark("members"))}
    ${apiKeysView(ui.mark("apiKeys"), {
      scopes: workspaceKeyScopes,
      intro: html`A program sends a key as <code>Authorization: Bearer lgk_…</code> to work with this workspace's links, and never with more than your role allows.`,
    })}
    ${auditLogView(ui.mark("audit"))}
  </div>
</div>
</div>`;
}
