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

/** A link the service's admins disabled after a report. */
export function disabledPage(): Page {
  return {
    title: "Link disabled",
    audience: "visitor",
    status: 410,
    main: noticePanel({
      heading: "This link has been disabled",
      says: ["The people who run this service disabled it after it was reported. It leads nowhere now."],
      action: { href: "/", label: "Shorten a URL" },
    }),
  };
}

/** A quarantined link: why it sends no one on, never where it would have. */
export function quarantinedPage(): Page {
  return {
    title: "Link stopped",
    audience: "visitor",
    status: 451,
    main: noticePanel({
      heading: "This link was stopped",
      says: [
        "Its destination is on a list of harmful sites (phishing, malware or scams), or it was reported as one, so this service does not send anyone there.",
        "Where it led is not shown.",
      ],
      action: { href: "/", label: "Shorten a URL" },
    }),
  };
}
