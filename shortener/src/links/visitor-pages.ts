/**
 * The pages a person who follows a short link may get instead of the
 * redirect: the link does not exist, is gone (expired or used up), or asks
 * for its password. Plain HTML with inline style and no script: the unlock
 * form works with scripts off. Through the gateway a browser gets the web
 * app's own version of each (its `link-page` header says which); these are
 * what the shortener alone answers.
 */
export type VisitorPage = { status: 401 | 404 | 410 | 451; headers: Record<string, string>; body: string };

/** The header that tells the gateway which page this is: `not-found`, `gone`, `disabled`, `quarantined`, `unlock` or `wrong-password`. */
export const linkPageHeader = "link-page";

export function notFoundPage(code: string): VisitorPage {
  return page(
    404,
    "not-found",
    "Link not found",
    `<h1>This short link does not exist</h1><p>There is no link called <code>${safeCode(code)}</code>. It may have been deleted, or the address was mistyped.</p>`,
  );
}

export function gonePage(reason: "expired" | "exhausted"): VisitorPage {
  const why = reason === "expired" ? "This short link has expired." : "This short link has been used as many times as its owner allowed.";
  return page(410, "gone", "Link no longer available", `<h1>This link is no longer available</h1><p>${why}</p>`);
}

/** A link the admins disabled (after a report). */
export function disabledPage(): VisitorPage {
  return page(
    410,
    "disabled",
    "Link disabled",
    "<h1>This link has been disabled</h1><p>The people who run this service disabled it after it was reported. It leads nowhere now.</p>",
  );
}

/** A quarantined link: why, never where it would have led. */
export function quarantinedPage(): VisitorPage {
  return page(
    451,
    "quarantined",
    "Link stopped",
    "<h1>This link was stopped</h1><p>Its destination is on a list of harmful sites (phishing, malware or scams), or it was reported as one, so this service does not send anyone there. Where it led is not shown.</p>",
  );
}

/** The password form; without an action it posts to the short URL itself, so it needs no script and names no code. */
export function unlockPage(wrongPassword: boolean): VisitorPage {
  const error = wrongPassword ? `<p class="error" id="password-error" role="alert">That password is not right. Try again.</p>` : "";
  const describedBy = wrongPassword ? ` aria-describedby="password-error" aria-invalid="true"` : "";
  return page(
    401,
    wrongPassword ? "wrong-password" : "unlock",
    "Password required",
    `<h1>This link is protected</h1><p>Enter the password its owner gave you to continue.</p>${error}
<form method="post"><label for="password">Password</label>
<input id="password" name="password" type="password" required minlength="8" maxlength="128" autocomplete="current-password" autofocus${describedBy}>
<button type="submit">Continue</button></form>`,
  );
}

function safeCode(code: string): string {
  return code.replace(/[^A-Za-z0-9_-]/g, "");
}

const style =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.5rem}" +
  "label{display:block;font-weight:600;margin:.5rem 0 .25rem}input{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;border:1px solid #767676;border-radius:4px}" +
  "button{font:inherit;margin-top:.75rem;padding:.5rem 1rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff}.error{color:#b00020}";

function page(status: VisitorPage["status"], kind: string, title: string, main: string): VisitorPage {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>${style}</style></head>
<body><main>${main}</main></body>
</html>`;
  return { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", [linkPageHeader]: kind }, body: html };
}
