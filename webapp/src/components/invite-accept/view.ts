import { html, type SafeHtml } from "../../html.ts";
import { signInView } from "../sign-in/view.ts";
import { inviteAcceptParts as ui } from "./parts.ts";

/**
 * The page an invite link opens (`/app/invite#lgi_…`): join as the person
 * signed in, or make an account and join, or sign in first (script.ts).
 * Every part starts hidden until the script knows who is there.
 */
export function inviteAcceptView(): SafeHtml {
  return html`<div id="invite-accept" class="admin invite-accept">
<h1>Join a workspace</h1>
<p class="muted" role="status" ${ui.mark("checking")}>Checking whether you are signed in…</p>
<noscript><p class="message error">Joining a workspace needs JavaScript.</p></noscript>
<p class="message error" role="alert" ${ui.mark("failure")}></p>
<section id="join-as" class="panel narrow" aria-labelledby="join-as-title" hidden ${ui.mark("joinAs")}>
  <h2 id="join-as-title">Join as <strong ${ui.mark("joinName")}></strong></h2>
  <p>The invite gives you its role in the workspace; the owners may change it later.</p>
  <p class="message error" role="alert" ${ui.mark("joinError")}></p>
  <div class="row">
    <button type="button" ${ui.mark("join")}>Join the workspace</button>
    <button type="button" class="secondary" ${ui.mark("signOut")}>Not you? Sign out</button>
  </div>
</section>
<section id="new-account" class="panel narrow" aria-labelledby="new-account-title" hidden ${ui.mark("newAccount")}>
  <h2 id="new-account-title">New here? Make your account</h2>
  <form id="account-form" method="post" novalidate ${ui.mark("accountForm")}>
    <div class="field">
      <label for="account-username">Username</label>
      <input id="account-username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="150" aria-describedby="account-username-hint account-username-error" ${ui.mark("accountUsername")}>
      <p id="account-username-hint" class="hint">Letters, digits and <code>@ . + - _</code>, up to 150.</p>
      <p id="account-username-error" class="field-error" role="alert"></p>
    </div>
    <div class="field">
      <label for="account-password">Password</label>
      <input id="account-password" name="password" type="password" autocomplete="new-password" aria-describedby="account-password-hint account-password-error" ${ui.mark("accountPassword")}>
      <p id="account-password-hint" class="hint">At least 8 characters: a few words are easy to remember.</p>
      <p id="account-password-error" class="field-error" role="alert"></p>
    </div>
    <p class="message error" role="alert" ${ui.mark("accountError")}></p>
    <button type="submit" ${ui.mark("accountCreate")}>Make my account and join</button>
  </form>
</section>
<p class="muted" hidden ${ui.mark("haveAccount")}>Have an account already? Sign in, then join.</p>
${signInView(ui.mark("signIn"))}
</div>`;
}
