import { html, type SafeHtml } from "../../html.ts";
import { signInParts as ui } from "./parts.ts";

/**
 * The sign-in form (the admin's, a person's), hidden until the page knows nobody is signed in.
 * It posts nowhere useful without the script, but by POST, so a password
 * typed into it never lands in a URL.
 */
export function signInView(mark: SafeHtml): SafeHtml {
  return html`<section id="sign-in" class="panel narrow" aria-labelledby="sign-in-title" hidden ${mark}>
  <h2 id="sign-in-title">Sign in</h2>
  <p id="sign-in-status" class="message ok" role="status" ${ui.mark("signInStatus")}></p>
  <form id="sign-in-form" method="post" ${ui.mark("signInForm")}>
    <div class="field">
      <label for="sign-in-username">Username</label>
      <input id="sign-in-username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required ${ui.mark("signInUsername")}>
    </div>
    <div class="field">
      <label for="sign-in-password">Password</label>
      <input id="sign-in-password" name="password" type="password" autocomplete="current-password" required ${ui.mark("signInPassword")}>
    </div>
    <p id="sign-in-error" class="message error" role="alert" ${ui.mark("signInError")}></p>
    <button type="submit" ${ui.mark("signInButton")}>Sign in</button>
  </form>
</section>`;
}
