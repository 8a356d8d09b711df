import { requestUrl } from "@linkgeo/shared";

/**
 * A link as the budgets name it: its code on the host asked (docs/domains.md:
 * the same code on two hosts is two links, with budgets of their own). The
 * host is read from the URL parsed for the request already.
 */
export function linkName(request: Request, code: string): string {
  return `${requestUrl(request)?.hostname ?? ""}/${code}`;
}

/** The link a redirect (`GET /<code>`, `/<code>/`) names: the path's first segment on the host asked. */
export function redirectLinkName(request: Request): string {
  const pathname = requestUrl(request)?.pathname ?? "/";
  const end = pathname.indexOf("/", 1);
  return linkName(request, end < 0 ? pathname.slice(1) : pathname.slice(1, end));
}
