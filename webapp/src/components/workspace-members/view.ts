import { html, type SafeHtml } from "../../html.ts";
import { confirmQuestionTemplate } from "../confirm-question/view.ts";
import { workspaceMembersParts as ui } from "./parts.ts";

/** The chosen workspace's members and their roles; for its owners, each role to change, a member to remove, and invites (script.ts). */
export function workspaceMembersView(mark: SafeHtml): SafeHtml {
  return html`<section id="workspace-members" class="panel" aria-labelledby="members-title" ${mark}>
  <h2 id="members-title" tabindex="-1" ${ui.mark("title")}>Members</h2>
  <p class="hint">Owners invite and manage members; editors make, change and delete links and make keys; viewers read links and their visits.</p>
  <p id="members-status" class="message ok" role="status" ${ui.mark("status")}></p>
  <p id="members-error" class="message error" role="alert" ${ui.mark("error")}></p>
  <div class="table-wrap">
    <table class="link-table members-table" aria-labelledby="members-title">
      <thead><tr><th scope="col">Username</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody ${ui.mark("body")}></tbody>
    </table>
  </div>
  <form id="invite-form" class="inline-form" method="post" novalidate aria-labelledby="invite-form-title" ${ui.mark("inviteForm")}>
    <h3 id="invite-form-title">Invite someone</h3>
    <div class="field">
      <label for="invite-role">Role</label>
      <select id="invite-role" name="role" ${ui.mark("inviteRole")}>
        <option value="editor">Editor</option>
        <option value="viewer">Viewer</option>
        <option value="owner">Owner</option>
      </select>
    </div>
    <p id="invite-error" class="message error" role="alert" ${ui.mark("inviteError")}></p>
    <button type="submit" ${ui.mark("inviteCreate")}>Make an invite link</button>
  </form>
  <div id="invite-made" class="token-box" role="group" aria-labelledby="invite-made-title" hidden ${ui.mark("invite")}>
    <h3 id="invite-made-title" tabindex="-1" ${ui.mark("inviteTitle")}>Copy the invite link now: you will not see it again</h3>
    <p>Send it to the one person who should join: whoever accepts it first joins with its role, signed in or as a new account. It works until <span ${ui.mark("inviteExpires")}></span>.</p>
    <label for="invite-link" class="visually-hidden">Invite link</label>
    <div class="copy-row">
      <input id="invite-link" class="mono" type="text" readonly ${ui.mark("inviteLink")}>
      <button type="button" class="secondary" ${ui.mark("inviteCopy")}>Copy link</button>
    </div>
    <p class="copy-status" aria-live="polite" ${ui.mark("inviteCopyStatus")}></p>
    <button type="button" class="secondary small" ${ui.mark("inviteDone")}>I have copied it</button>
  </div>
  ${confirmQuestionTemplate(ui.mark("questionTemplate"))}
</section>`;
}
