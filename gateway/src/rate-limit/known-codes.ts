/** How many clients a process remembers codes of, and how many codes each: a bounded memory, whatever the traffic. */
const maxClients = 10_000;
const maxCodesPerClient = 32;

/**
 * The links each client was sent on by (a redirect that found its link),
 * latest first, in this process's memory: what a client refused for its
 * misses may still follow (docs/abuse.md). The oldest client is forgotten
 * past `maxClients`, a client's oldest code past `maxCodesPerClient`; a
 * forgotten code is asked of the miss budget as any other.
 */
export class KnownCodes {
  private readonly byClient = new Map<string, string[]>();

  remember(client: string, link: string): void {
    const codes = this.byClient.get(client) ?? [];
    // The same link again (a client following one link, the common case): its list stays as it is.
    const kept = codes[0] === link ? codes : [link, ...codes.filter((code) => code !== link)].slice(0, maxCodesPerClient);
    // Deleted and set again: the map's order is then the clients' last use, oldest first.
    this.byClient.delete(client);
    this.byClient.set(client, kept);
    if (this.byClient.size > maxClients) this.byClient.delete(this.byClient.keys().next().value!);
  }

  has(client: string, link: string): boolean {
    return this.byClient.get(client)?.includes(link) ?? false;
  }
}
