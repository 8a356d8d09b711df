/**
 * What the API says of saved links, read for a whole list at once: one
 * POST /shorten/stats/ per 500 codes of the default domain (the API's
 * limit), so a long list does not spend the rate budget link by link; a
 * link on another domain (a few, brought by their tokens) is asked on its
 * own, with `?domain=`. A link the API does not have no longer exists.
 */
import { ApiError } from "./api.ts";
import { call, type Answer } from "./api-call.ts";
import { domainQuery, linkName, type LinkAddress } from "./link-address.ts";

/** A link's stats: its visits, and its state and protection as its public record says them. */
export type LinkStats = Answer<"POST /shorten/stats">["results"][number];

/** As many codes as POST /shorten/stats/ takes in one request. */
const maxStatsCodes = 500;

/**
 * Each link's stats by its name (`linkName`): null for a link that does not
 * exist (deleted), undefined for a link on another domain whose own call
 * failed; the whole map undefined when the default domain's could not be
 * read (the server down, the network gone).
 */
export async function readLinkStats(links: readonly LinkAddress[]): Promise<Map<string, LinkStats | null | undefined> | undefined> {
  const found = new Map<string, LinkStats | null | undefined>(links.map((link) => [linkName(link), null]));
  const codes = links.filter((link) => link.domain === undefined).map((link) => link.code);
  try {
    for (let start = 0; start < codes.length; start += maxStatsCodes) {
      const asked = codes.slice(start, start + maxStatsCodes);
      const { results } = await call("POST /shorten/stats", { body: { short_urls: asked } });
      for (const stats of results) if (found.has(stats.short_url)) found.set(stats.short_url, stats);
    }
  } catch {
    return undefined;
  }
  for (const link of links.filter((one) => one.domain !== undefined)) found.set(linkName(link), await statsOnDomain(link));
  return found;
}

/** One link's stats on its domain; null when it does not exist there, undefined when the call failed (a 429, the network). */
async function statsOnDomain(link: LinkAddress): Promise<LinkStats | null | undefined> {
  try {
    return await call("GET /shorten/{short_url}/stats", { params: { short_url: link.code }, query: domainQuery(link) });
  } catch (error) {
    // No such link on that domain, or no such domain any more: deleted, either way.
    return error instanceof ApiError && error.status === 404 ? null : undefined;
  }
}
