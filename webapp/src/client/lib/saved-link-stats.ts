/**
 * What the API says of saved links, read for a whole list at once: one
 * POST /shorten/stats/ per 500 codes (the API's limit), so a long list does
 * not spend the rate budget link by link. A code missing from the answer is
 * a link that no longer exists.
 */
import { call, type Answer } from "./api-call.ts";

/** A link's stats: its visits, and its state and protection as its public record says them. */
export type LinkStats = Answer<"POST /shorten/stats">["results"][number];

/** As many codes as POST /shorten/stats/ takes in one request. */
const maxStatsCodes = 500;

/**
 * Each code's stats, or null for a code no link has (deleted); undefined
 * when they could not be read (the server down, the network gone).
 */
export async function readLinkStats(codes: readonly string[]): Promise<Map<string, LinkStats | null> | undefined> {
  const found = new Map<string, LinkStats | null>(codes.map((code) => [code, null]));
  try {
    for (let start = 0; start < codes.length; start += maxStatsCodes) {
      const asked = codes.slice(start, start + maxStatsCodes);
      const { results } = await call("POST /shorten/stats", { body: { short_urls: asked } });
      for (const stats of results) if (found.has(stats.short_url)) found.set(stats.short_url, stats);
    }
  } catch {
    return undefined;
  }
  return found;
}
