import { html, type SafeHtml } from "../../html.ts";

/**
 * The password form of a protected link. It posts to the short URL itself
 * (no `action`: the page's own address, query included), so it needs no
 * script and names neither the code nor, ever, the destination. After a
 * wrong try the error sits on the field (aria-invalid, aria-describedby)
 * and is announced (role=alert).
 */
export function unlockForm(wrongPassword: boolean): SafeHtml {
  const error = wrongPassword ? html`<p id="password-error" class="field-error" role="alert">That password is not right. Try again.</p>` : null;
  const invalid = wrongPassword ? html` aria-invalid="true" aria-describedby="password-error"` : null;
  return html`<section class="panel narrow unlock" aria-labelledby="unlock-heading">
<h1 id="unlock-heading">This link is protected</h1>
<p>Enter the password its owner gave you to continue.</p>
<form id="unlock-form" method="post">
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" required minlength="8" maxlength="128" autocomplete="current-password" autofocus${invalid}>
${error}
</div>
<button type="submit">Continue</button>
</form>
</section>`;
}
