import { noticePanel } from "../components/notice-panel/view.ts";
import { unlockForm } from "../components/unlock-form/view.ts";
import type { Page } from "../page-shell.ts";

/** A protected link's password form (unlock-form), again with the error after a wrong try. */
export function unlockPage(wrongPassword: boolean): Page {
  return {
    title: "Password required",
    audience: "visitor",
    status: 401,
    // The right password is answered with a redirect to anywhere on the web, which form-action governs too.
    formTargets: "web",
    main: unlockForm(wrongPassword),
  };
}

/** A link past its expiry or its allowed visits, without an address to send its visitors to instead. */
export function gonePage(): Page {
  return {
    title: "Link no longer available",
    audience: "visitor",
    status: 410,
    main: noticePanel({
      heading: "This link is no longer available",
      says: ["It has expired, or it has been used as many times as its owner allowed."],
      action: { href: "/", label: "Shorten a URL" },
    }),
  };
}
