/**
 * A link's count, watched while its page is open and shown: a cheap poll of
 * the link's public stats every `liveUpdateMs`, the host told only when the
 * count moved; a tab shown again asks at once. A stop drops any read under
 * way, so none is answered after it (a poll's 404 would be an error in the
 * console once the link is deleted).
 */
import { domainQuery } from "./link-address.ts";
import { ApiError } from "./api.ts";
import { call } from "./api-call.ts";
import type { LinkStats } from "./link-record.ts";
import { liveUpdateMs } from "./live-update.ts";

export interface LiveCountHost {
  /** The link's code: its public stats are what the polls read. */
  code: string;
  /** The host of its domain; absent, the default domain. */
  domain?: string;
  /** A read of the host's own is under way: this tick is skipped, the next one asks. */
  busy(): boolean;
  /** The count moved since the last read. */
  moved(stats: LinkStats): Promise<void>;
  /** The link is gone (a 404): the polls have stopped. */
  gone(): void;
}

export class LiveCount {
  /** Set while live: the poll's timer. */
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastCount: number | null = null;
  /** What a stop aborts: the reads under way. */
  private reads = new AbortController();

  constructor(private readonly host: LiveCountHost) {
    // Shown again after a while away: catch up at once rather than at the next tick.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") void this.poll();
    });
  }

  /** Polls from now on when `live`, else not. */
  keep(live: boolean): void {
    clearInterval(this.timer);
    this.timer = live ? setInterval(() => void this.poll(), liveUpdateMs) : undefined;
  }

  stop(): void {
    this.reads.abort();
    this.reads = new AbortController();
    this.keep(false);
  }

  /** The count the polls compare with, read once (the first poll sets it otherwise). */
  async settle(): Promise<void> {
    if (this.lastCount !== null) return;
    try {
      this.lastCount = (await this.read()).access_count;
    } catch (error) {
      this.failed(error);
    }
  }

  private read(): Promise<LinkStats> {
    return call("GET /shorten/{short_url}/stats", { params: { short_url: this.host.code }, query: domainQuery(this.host), signal: this.reads.signal });
  }

  private async poll(): Promise<void> {
    if (this.timer === undefined || document.visibilityState !== "visible" || this.host.busy()) return;
    try {
      const stats = await this.read();
      const moved = this.lastCount !== null && stats.access_count !== this.lastCount;
      this.lastCount = stats.access_count;
      if (moved) await this.host.moved(stats);
    } catch (error) {
      this.failed(error);
    }
  }

  /** A 404: the link is gone, and asking again every few seconds would only be told so again. Otherwise a missed read is no news. */
  private failed(error: unknown): void {
    if (!(error instanceof ApiError) || error.status !== 404) return;
    this.stop();
    this.host.gone();
  }
}
