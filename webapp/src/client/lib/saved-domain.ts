/**
 * The domain a link is saved with in this browser (saved-links.ts): none
 * for the default domain's link, so it is found again by its code alone as
 * the home page saves it; else its record's host. A record names its
 * domain's host either way (the default domain's is "" when the page came by
 * an added domain's host without PUBLIC_BASE_URL), so this asks the API:
 * the code without `?domain=` is the default domain's link, and it is this
 * one when it names the same short link on the same domain. When the API
 * cannot say, the record's own host is kept: its calls name it, and reach
 * the same link.
 */
import { ApiError } from "./api.ts";
import { call } from "./api-call.ts";
import type { LinkRecord } from "./link-record.ts";

export async function savedDomainOf(record: Pick<LinkRecord, "short_url" | "link" | "domain">): Promise<{ domain?: string }> {
  if (record.domain === "") return {};
  try {
    const plain = await call("GET /shorten/{short_url}", { params: { short_url: record.short_url } });
    if (plain.link === record.link && plain.domain === record.domain) return {};
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) return { domain: record.domain };
  }
  return { domain: record.domain };
}
