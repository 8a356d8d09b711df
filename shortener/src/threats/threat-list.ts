import { threatUrlKey, type ThreatEntries } from "./threat-entries.ts";

/** Which list names a destination: the question LinkTargets asks of every URL a visitor may be sent to. */
export interface ThreatCheck {
  /** The name of a list that names `url` (the URL itself, its host, or a domain above it), or undefined. */
  listing(url: URL): string | undefined;
}

/** Entries added between two yields to the event loop. */
const entriesPerSlice = 20_000;

/**
 * Every loaded feed in two maps, for a lookup per destination that costs a
 * few map reads however long the lists are: normalised URL → list, and
 * host → list (a host is listed with every name under it, so a URL's host
 * and each of its parent domains are looked up, `a.b.bad.example`,
 * `b.bad.example`, `bad.example`, `example`). The first list loaded names
 * an entry two lists share.
 */
export class ThreatList implements ThreatCheck {
  private readonly urls = new Map<string, string>();
  private readonly hosts = new Map<string, string>();

  /** The lists of `feeds`, in their order, built a slice at a time with a yield between (millions of entries are a second of work). */
  static async build(feeds: ReadonlyArray<{ name: string; entries: ThreatEntries }>): Promise<ThreatList> {
    const list = new ThreatList();
    for (const { name, entries } of feeds) {
      for (const [keys, map] of [
        [entries.urls, list.urls],
        [entries.hosts, list.hosts],
      ] as const) {
        for (let i = 0; i < keys.length; i++) {
          if (!map.has(keys[i]!)) map.set(keys[i]!, name);
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
    const byUrl = key === undefined ? undefined : this.urls.get(key);
    if (byUrl !== undefined) return byUrl;
    let host = url.hostname.replace(/\.+$/, "");
    for (;;) {
      const byHost = this.hosts.get(host);
      if (byHost !== undefined) return byHost;
      const dot = host.indexOf(".");
      if (dot === -1 || host.startsWith("[")) return undefined;
      host = host.slice(dot + 1);
    }
  }
}
