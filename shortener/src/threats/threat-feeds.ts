import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { Logger } from "@linkgeo/shared";
import { hashKeys, type HashedKeys } from "./hashed-keys.ts";
import { readThreatEntries } from "./threat-entries.ts";
import type { ThreatCheck } from "../links/threat-check.ts";
import { ThreatList } from "./threat-list.ts";

/** The largest feed file read (a hagezi "ultimate" list is about 100 MB): past it the file is refused and its last good copy kept. */
export const maxFeedBytes = 512 * 1024 * 1024;

/** How often each file is looked at for a change (its size and modification time). */
export const defaultFeedCheckMs = 5_000;

export interface ThreatFeedsDeps {
  /** THREAT_FEEDS: the files, in the order their lists are consulted. */
  paths: readonly string[];
  log: Logger;
  checkEveryMs?: number;
  /** METRICS_PORT set: the entries of each list loaded, and each destination a list named. */
  observer?: ThreatObserver;
}

export interface ThreatObserver {
  listLoaded(list: string, entries: number): void;
  matched(list: string): void;
}

interface LoadedFeed {
  /** Size and modification time when read: a change of either reads the file again. */
  signature: string;
  /** Its entries, hashed: the last good copy, kept for the next build. */
  urls: HashedKeys;
  hosts: HashedKeys;
}

/**
 * THREAT_FEEDS, kept current (docs/abuse.md): each file is read at start
 * and again when it changes, in slices that leave requests room, and the
 * lists are swapped in whole once built; a check in between uses the lists
 * before. A file that cannot be read, or is too large, is logged and its
 * last good copy kept. The lists live in memory only; nothing about a
 * destination is sent anywhere.
 */
export class ThreatFeeds implements ThreatCheck {
  private list = ThreatList.empty;
  private readonly feeds = new Map<string, LoadedFeed>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly deps: ThreatFeedsDeps) {}

  listing(url: URL, counted = true): string | undefined {
    const list = this.list.listing(url);
    if (list !== undefined && counted) this.deps.observer?.matched(list);
    return list;
  }

  /** Every file has been read once (its last good copy is kept after). */
  get complete(): boolean {
    return this.deps.paths.every((path) => this.feeds.has(path));
  }

  /** Entries in the lists now. */
  get size(): number {
    return this.list.size;
  }

  /** Reads every file once (the service's start waits for it), then checks them every `checkEveryMs`. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.deps.checkEveryMs ?? defaultFeedCheckMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads the files that changed since they were read, then swaps in the new lists; one pass at a time. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readChanged().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async readChanged(): Promise<void> {
    let changed = false;
    for (const path of this.deps.paths) changed = (await this.readIfChanged(path)) || changed;
    if (!changed) return;
    const feeds = this.deps.paths.flatMap((path) => {
      const feed = this.feeds.get(path);
      return feed ? [{ name: listName(path), urls: feed.urls, hosts: feed.hosts }] : [];
    });
    this.list = await ThreatList.build(feeds);
  }

  /** True when the file was read again (its list changed). */
  private async readIfChanged(path: string): Promise<boolean> {
    const name = listName(path);
    try {
      const stats = await stat(path);
      const signature = `${stats.size}:${stats.mtimeMs}`;
      if (this.feeds.get(path)?.signature === signature) return false;
      if (stats.size > maxFeedBytes) throw new Error(`it is ${stats.size} bytes, more than ${maxFeedBytes}`);
      const text = await Bun.file(path).text();
      // Changed while it was read (a copy still being written): read it at the next check, whole.
      const after = await stat(path);
      if (`${after.size}:${after.mtimeMs}` !== signature) return false;
      const entries = await readThreatEntries(text);
      this.feeds.set(path, { signature, urls: hashKeys(entries.urls), hosts: hashKeys(entries.hosts) });
      const count = entries.urls.length + entries.hosts.length;
      this.deps.log.info("threat feed loaded", { list: name, urls: entries.urls.length, hosts: entries.hosts.length, skipped_lines: entries.skipped });
      this.deps.observer?.listLoaded(name, count);
      return true;
    } catch (error) {
      const kept = this.feeds.has(path);
      this.deps.log.warn("threat feed could not be read", {
        list: name,
        reason: error instanceof Error ? error.message : String(error),
        kept: kept ? "its last good copy" : "nothing: the list is empty until it can be read",
      });
      return false;
    }
  }
}

/** A list's name, as a refusal and the logs say it: its file's name. */
export function listName(path: string): string {
  return basename(path);
}

/**
 * THREAT_FEEDS: a comma list of files, each a file at start (a path that is
 * none is a typo worth stopping for). Throws in words that complete
 * "THREAT_FEEDS …".
 */
export function parseThreatFeedPaths(raw: string): string[] {
  const paths = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  for (const path of paths) {
    const isFile = (() => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    })();
    if (!isFile) throw new Error(`has "${path}", which is not a file this service can read`);
  }
  const names = paths.map(listName);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`names two files called "${twice}": a list is named by its file's name, so give each its own`);
  return paths;
}
