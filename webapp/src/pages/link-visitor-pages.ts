import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * The password form of a protected link. It posts to the short URL itself
 * (no `action`: the page's own address, query included), so it needs no
 * script and names neither the code nor, ever, the destination. After a
 * wrong try the error sits on the field (aria-invalid, aria-describedby)
 * and is announced (role=alert).
 */
export function unlockPage(wrongPassword: boolean): Page {
  const error = wrongPassword ? html`<p id="password-error" class="field-error" role="alert">That password is not right. Try again.</p>` : null;
  const invalid = wrongPassword ? html` aria-invalid="true" aria-describedby="password-error"` : null;
  return {
    title: "Password required",
    status: 401,
    // The right password is answered with a redirect to anywhere on the web, which form-action governs too.
    formTargets: "web",
    main: html`<section class="panel narrow unlock" aria-labelledby="unlock-heading">
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
</section>`,
  };
}

/** A link past its expiry or its allowed visits, without an address to send its visitors to instead. */
export function gonePage(): Page {
  return {
    title: "Link no longer available",
    status: 410,
    main: html`<section class="panel narrow">
<h1>This link is no longer available</h1>
<p>It has expired, or it has been used as many times as its owner allowed.</p>
<p><a class="button" href="/">Shorten a URL</a></p>
</section>`,
  };
}
