/**
 * What the API says of saved links, read for a whole list at once: one
 * POST /shorten/stats/ per 500 codes of the default domain (the API's
 * limit), so a long list does not spend the rate budget link by link; a
 * link on another domain (a few, brought by their tokens) is asked on its
 * own, with `?domain=`. Each call carries the links' manage tokens: a
 * link's state and password are said to its readers only (docs/people.md:
 * "Private by default"). A link the API does not have no longer exists.
 */
import { ApiError } from "./api.ts";
import { call, type Answer } from "./api-call.ts";
import { domainQuery, linkName } from "./link-address.ts";
import { savedAddress, type SavedLink } from "./saved-links.ts";

/** A link's stats: its visits, and its state and protection (for the holder of its manage token). */
export type LinkStats = Answer<"POST /shorten/stats">["results"][number];

/** As many codes as POST /shorten/stats/ takes in one request. */
const maxStatsCodes = 500;

type Asked = Pick<SavedLink, "short_url" | "domain" | "manage_token">;

/**
 * Each link's stats by its name (`linkName`): null for a link that does not
 * exist (deleted), undefined for a link on another domain whose own call
 * failed; the whole map undefined when the default domain's could not be
 * read (the server down, the network gone).
 */
export async function readLinkStats(links: readonly Asked[]): Promise<Map<string, LinkStats | null | undefined> | undefined> {
  const found = new Map<string, LinkStats | null | undefined>(links.map((link) => [linkName(savedAddress(link)), null]));
  const onDefault = links.filter((link) => link.domain === undefined);
  try {
    for (let start = 0; start < onDefault.length; start += maxStatsCodes) {
      const asked = onDefault.slice(start, start + maxStatsCodes);
      const body = { short_urls: asked.map((link) => link.short_url), manage_tokens: asked.map((link) => link.manage_token) };
      const { results } = await call("POST /shorten/stats", { body });
      for (const stats of results) if (found.has(stats.short_url)) found.set(stats.short_url, stats);
    }
  } catch {
    return undefined;
  }
  for (const link of links.filter((one) => one.domain !== undefined)) found.set(linkName(savedAddress(link)), await statsOnDomain(link));
  return found;
}

/** One link's stats on its domain; null when it does not exist there, undefined when the call failed (a 429, the network). */
async function statsOnDomain(link: Asked): Promise<LinkStats | null | undefined> {
  const address = savedAddress(link);
  try {
    return await call("GET /shorten/{short_url}/stats", {
      params: { short_url: address.code },
      query: domainQuery(address),
      credential: { kind: "token", token: link.manage_token },
    });
  } catch (error) {
    // No such link on that domain, or no such domain any more: deleted, either way.
    return error instanceof ApiError && error.status === 404 ? null : undefined;
  }
}
