import { HashedKeyTable, type HashedKeys } from "./hashed-keys.ts";
import type { ThreatCheck } from "../links/threat-check.ts";
import { threatUrlKey } from "./threat-entries.ts";

/** A feed's entries as the lists keep them: hashed (hashed-keys.ts). */
export interface HashedFeed {
  name: string;
  urls: HashedKeys;
  hosts: HashedKeys;
}

/** Entries added between two yields to the event loop. */
const entriesPerSlice = 50_000;

/**
 * Every loaded feed in two tables of hashed keys, for a lookup per
 * destination that costs a few array reads however long the lists are:
 * normalised URLs, and hosts (a host is listed with every name under it,
 * so a URL's host and each of its parent domains are looked up,
 * `a.b.bad.example`, `b.bad.example`, `bad.example`, `example`). The
 * first list loaded names an entry two lists share.
 */
export class ThreatList implements ThreatCheck {
  private constructor(
    private readonly names: readonly string[],
    private readonly urls: HashedKeyTable,
    private readonly hosts: HashedKeyTable,
  ) {}

  static readonly empty = new ThreatList([], new HashedKeyTable(0), new HashedKeyTable(0));

  /** The lists of `feeds`, in their order, built a slice at a time with a yield between. */
  static async build(feeds: readonly HashedFeed[]): Promise<ThreatList> {
    const total = (pick: (feed: HashedFeed) => HashedKeys) => feeds.reduce((sum, feed) => sum + pick(feed).length, 0);
    const list = new ThreatList(
      feeds.map((feed) => feed.name),
      new HashedKeyTable(total((feed) => feed.urls)),
      new HashedKeyTable(total((feed) => feed.hosts)),
    );
    for (const [index, feed] of feeds.entries()) {
      for (const [keys, table] of [
        [feed.urls, list.urls],
        [feed.hosts, list.hosts],
      ] as const) {
        for (let i = 0; i < keys.length; i++) {
          table.add(keys.first[i]!, keys.second[i]!, index);
          if (i % entriesPerSlice === entriesPerSlice - 1) await Bun.sleep(0);
        }
      }
    }
    return list;
  }

  get size(): number {
    return this.urls.size + this.hosts.size;
  }

  listing(url: URL): string | undefined {
    if (this.size === 0) return undefined;
    const key = threatUrlKey(url.href);
    const byUrl = key === undefined ? -1 : this.urls.get(key);
    if (byUrl !== -1) return this.names[byUrl];
    let host = url.hostname.replace(/\.+$/, "");
    for (;;) {
      const byHost = this.hosts.get(host);
      if (byHost !== -1) return this.names[byHost];
      const dot = host.indexOf(".");
      if (dot === -1 || host.startsWith("[")) return undefined;
      host = host.slice(dot + 1);
    }
  }
}
