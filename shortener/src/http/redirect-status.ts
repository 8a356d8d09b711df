import { InvalidRequest } from "@linkgeo/shared";

/** The redirects a link or a domain may answer with (REDIRECT_STATUS, `redirect_status`). */
export type RedirectStatus = 301 | 302 | 307 | 308;

export const redirectStatuses: readonly RedirectStatus[] = [301, 302, 307, 308];

/** A link's or a domain's `redirect_status`: 301, 302, 307, 308, or null for the default. */
export function parseRedirectStatus(value: unknown): RedirectStatus | null {
  if (value === null) return null;
  if (!redirectStatuses.includes(value as RedirectStatus)) throw InvalidRequest.because("redirect_status must be 301, 302, 307, 308 or null");
  return value as RedirectStatus;
}
