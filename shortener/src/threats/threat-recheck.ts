import { randomUUID } from "node:crypto";
import { describeError, type Logger } from "@linkgeo/shared";
import { type HoldChange, reportHoldReason } from "../links/link-hold.ts";
import type { Link } from "../links/link.ts";
import type { RecheckStore } from "./recheck-store.ts";
import type { ThreatCheck } from "../links/threat-check.ts";

/** THREAT_RECHECK_SECONDS' default and least value. */
export const defaultRecheckSeconds = 3_600;
export const leastRecheckSeconds = 10;

/** The links the pass reads, and how it holds or lets go of one. */
export interface RecheckedLinks {
  /** Up to `limit` links after key `after` (null: from the first), in key order. */
  page(after: string | null, limit: number): Promise<Link[]>;
  /** Changes the hold if it is still `heldAs` (an admin may have changed it since the page was read); false when not. */
  hold(code: string, change: HoldChange, heldAs: HoldChange): Promise<boolean>;
}

export interface RecheckObserver {
  /** A link the pass quarantined, by the list that named it. */
  quarantined(list: string): void;
  /** A link the pass let go: no list names its destinations now. */
  released(): void;
}

export interface ThreatRecheckDeps {
  store: RecheckStore;
  links: RecheckedLinks;
  /** The same lists every way in asks (allow-list and ban list included); asked uncounted, as its matches refuse nothing. */
  check: ThreatCheck;
  /** Reads the admins' lists again before a pass, so that it judges by what they hold now. */
  refresh?: () => Promise<void>;
  /** THREAT_RECHECK_SECONDS, in ms: from the end of one pass to the start of the next. */
  everyMs: number;
  clock: () => Date;
  log: Logger;
  observer?: RecheckObserver;
  /** Links read at a time; default 200. */
  pageSize?: number;
  /** The pause after each page, so the redirect path never waits on the pass; default 20 ms. */
  pauseMs?: number;
  /** How long a holder keeps the pass without news of it; default 60 s. */
  leaseMs?: number;
  /** How often a replica asks whether the pass is due; default the lesser of `everyMs` and 5 s. */
  pollMs?: number;
}

/** What one pass did. */
export interface RecheckOutcome {
  /** False when another replica held the pass, or it was not due. */
  ran: boolean;
  checked: number;
  quarantined: number;
  released: number;
}

/**
 * The threat recheck (docs/abuse.md): links made before a list named their
 * destination are found by a pass over every link, every `everyMs`. A link
 * whose long URL, expired URL or a rule's URL is listed is quarantined,
 * with the list's name; one the pass quarantined whose destinations no list
 * names any longer (an allow-list entry, a feed that dropped it) is let go.
 * A hold an admin set from a report is never touched. One replica of a
 * cluster runs it at a time (a lease in the database), a page of links at a
 * time with a pause between, keeping its place, so that a replica that
 * stops midway leaves the rest to the next holder.
 */
export class ThreatRecheck {
  private readonly holder = randomUUID();
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<RecheckOutcome> | undefined;
  private stopped = false;

  constructor(private readonly deps: ThreatRecheckDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.deps.pollMs ?? Math.min(this.deps.everyMs, 5_000));
    this.timer.unref?.();
    void this.runOnce();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Runs the pass if it is due and no other replica holds it; one at a time here. */
  runOnce(): Promise<RecheckOutcome> {
    this.running ??= this.pass()
      .catch((error: unknown) => {
        // The lease runs out and the pass goes on from its cursor, here or on another replica.
        this.deps.log.warn("threat recheck failed; it goes on from where it was at its next turn", { error: describeError(error) });
        return { ran: false, checked: 0, quarantined: 0, released: 0 };
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async pass(): Promise<RecheckOutcome> {
    const outcome: RecheckOutcome = { ran: false, checked: 0, quarantined: 0, released: 0 };
    await this.deps.refresh?.();
    // A list missing here (a feed not read yet, the allow-list or ban list unreadable) would let its links go: wait for it.
    if (this.deps.check.complete === false) return outcome;
    const leaseMs = this.deps.leaseMs ?? 60_000;
    const lease = () => new Date(this.deps.clock().getTime() + leaseMs);
    const claimed = await this.deps.store.claim(this.holder, this.deps.clock(), lease());
    if (claimed === undefined) return outcome;
    outcome.ran = true;
    const pageSize = this.deps.pageSize ?? 200;
    let cursor = claimed.cursor;
    for (;;) {
      if (this.stopped) return outcome;
      const links = await this.deps.links.page(cursor, pageSize);
      for (const link of links) {
        outcome.checked++;
        const change = this.judge(link);
        if (change === undefined) continue;
        if (!(await this.deps.links.hold(link.code, change, { hold: link.hold, reason: link.holdReason }))) continue;
        if (change.hold === null) {
          outcome.released++;
          this.deps.observer?.released();
        } else {
          outcome.quarantined++;
          this.deps.observer?.quarantined(change.reason ?? "");
        }
      }
      if (links.length < pageSize) break;
      cursor = links[links.length - 1]!.code;
      // Lost (this replica stalled past its lease): the holder now goes on from the cursor it keeps.
      if (!(await this.deps.store.advance(this.holder, cursor, lease()))) return outcome;
      await Bun.sleep(this.deps.pauseMs ?? 20);
    }
    await this.deps.store.finish(this.holder, new Date(this.deps.clock().getTime() + this.deps.everyMs));
    if (outcome.quarantined > 0 || outcome.released > 0) this.deps.log.info("threat recheck finished", { ...outcome });
    return outcome;
  }

  /** The hold `link` should get, or undefined to leave it as it is. */
  private judge(link: Link): HoldChange | undefined {
    // Disabled, or quarantined from a report: an admin's decision, not the lists'.
    if (link.hold === "disabled" || link.holdReason === reportHoldReason) return undefined;
    const list = this.listing(link);
    if (link.hold === null) return list === undefined ? undefined : { hold: "quarantined", reason: list };
    return list === undefined ? { hold: null, reason: null } : undefined;
  }

  /** The list that names one of the addresses `link` may send a visitor to. */
  private listing(link: Link): string | undefined {
    for (const address of [link.longUrl, link.expiredUrl, ...link.rules.map((rule) => rule.url)]) {
      if (address === null) continue;
      const url = URL.parse(address);
      const list = url === null ? undefined : this.deps.check.listing(url, false);
      if (list !== undefined) return list;
    }
    return undefined;
  }
}
