import { HttpError, InvalidRequest } from "@linkgeo/shared";
import { reportHoldReason } from "../links/link-hold.ts";
import { LinkNotFound } from "../links/link-errors.ts";
import { linkCreator } from "../links/link-creator.ts";
import type { Link } from "../links/link.ts";
import type { LinkService } from "../links/link-service.ts";
import { AllowEntryTaken, type AllowList } from "./allow-list.ts";
import { threatHostKey } from "./threat-entries.ts";
import {
  maxOpenReportsPerLink,
  maxReportNote,
  type Report,
  type ReportAction,
  reportActions,
  type ReportReason,
  reportReasons,
  type ReportStore,
} from "./report.ts";

/** 404 `not_found`: no report has this id. */
export class ReportNotFound extends HttpError {
  private constructor() {
    super(404, "not_found", "no report has this id");
  }

  static here(): ReportNotFound {
    return new ReportNotFound();
  }
}

/** 409 `conflict`: the action cannot be done to this report's link (no key made it). */
export class ReportActionRefused extends HttpError {
  private constructor(message: string) {
    super(409, "conflict", message);
  }

  static because(message: string): ReportActionRefused {
    return new ReportActionRefused(message);
  }
}

export interface ReportObserver {
  reported(reason: ReportReason): void;
  resolved(action: ReportAction): void;
}

export interface ReportsDeps {
  store: ReportStore;
  links: Pick<LinkService, "find" | "setHold">;
  /** Revokes an API key by its id (auth/api-keys.ts). */
  revokeKey: (id: string) => Promise<void>;
  /** The ban list (allow-list.ts with verdict "ban"): `ban_domain` adds the destination's host to it. */
  banList: AllowList;
  clock: () => Date;
  observer?: ReportObserver;
}

/** A report and its link, as the queue shows them. */
export interface QueuedReport {
  report: Report;
  /** Null only for a link deleted between the two reads (its reports go with it). */
  link: Link | null;
}

/**
 * Reports of harmful links (docs/abuse.md): anyone files one for a link,
 * with a reason from a short list and a note; admins see them in a queue
 * with the link and act on them. Nothing of who reported is kept.
 */
export class Reports {
  constructor(private readonly deps: ReportsDeps) {}

  /** Files a report of the link `code` (its key); 404 for a link that does not exist. */
  async submit(code: string, body: { reason: unknown; note?: unknown }): Promise<void> {
    const reason = reportReasons.find((known) => known === body.reason);
    if (reason === undefined) throw InvalidRequest.because(`reason must be one of ${reportReasons.join(", ")}`);
    const note = noteOf(body.note);
    const kept = await this.deps.store.insert({ code, reason, note, createdAt: this.deps.clock() }, maxOpenReportsPerLink);
    // Null: no such link, or it has reports enough waiting already (the reporter is not told which of those two).
    if (kept === null && !(await this.deps.links.find(code))) throw LinkNotFound.for(code);
    this.deps.observer?.reported(reason);
  }

  /** A page of the queue, newest first: open reports, or every one (`open` false). */
  async page(query: { open: boolean; limit: number; before?: number }): Promise<QueuedReport[]> {
    const reports = await this.deps.store.page(query);
    return Promise.all(reports.map(async (report) => ({ report, link: await this.deps.links.find(report.code) })));
  }

  /**
   * Does `action` (a string from the request, checked here) to report
   * `rawId`'s link, and resolves every open report of that link with it;
   * `revoke_key` resolves none (the link itself is still to be dealt with).
   */
  async act(rawId: string, rawAction: unknown): Promise<QueuedReport> {
    const action = reportActions.find((known) => known === rawAction);
    if (action === undefined) throw InvalidRequest.because(`action must be one of ${reportActions.join(", ")}`);
    const id = Number(rawId);
    const report = /^\d{1,15}$/.test(rawId) ? await this.deps.store.find(id) : null;
    if (report === null) throw ReportNotFound.here();
    const link = await this.deps.links.find(report.code);
    if (link === null) throw ReportNotFound.here();
    const acted = await this.apply(action, link);
    if (action !== "revoke_key") await this.deps.store.resolveLink(report.code, action, this.deps.clock());
    this.deps.observer?.resolved(action);
    return { report: (await this.deps.store.find(id)) ?? report, link: acted };
  }

  private async apply(action: ReportAction, link: Link): Promise<Link> {
    switch (action) {
      case "quarantine":
        return this.deps.links.setHold(link.code, { hold: "quarantined", reason: reportHoldReason });
      case "disable":
        return this.deps.links.setHold(link.code, { hold: "disabled", reason: reportHoldReason });
      case "ban_domain": {
        const host = URL.parse(link.longUrl)?.hostname;
        if (!host) throw ReportActionRefused.because("the link's destination has no host to ban");
        // A ban lists a DNS name of two labels or more, as the feeds' entries (threatHostKey): `http://intranet/`'s is none.
        if (threatHostKey(host) === undefined) {
          throw ReportActionRefused.because(`the destination's host "${host}" is no name a ban can list (a single label, say): quarantine the link instead`);
        }
        await this.deps.banList.add({ domain: host }).catch((error: unknown) => {
          if (!(error instanceof AllowEntryTaken)) throw error;
        });
        // Held as a report's, as quarantine holds it (lifting the ban later does not let this link go); the ban
        // itself refuses new links there, and the recheck finds the domain's other links.
        if (link.hold === "disabled") return link;
        return this.deps.links.setHold(link.code, { hold: "quarantined", reason: reportHoldReason });
      }
      case "revoke_key": {
        const creator = linkCreator(link.createdBy);
        if (creator.kind !== "api-key" || creator.id === null) throw ReportActionRefused.because("no API key made this link");
        await this.deps.revokeKey(creator.id).catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) throw ReportActionRefused.because("the API key that made this link is revoked already");
          throw error;
        });
        return link;
      }
      case "dismiss":
        return link;
    }
  }
}

/** The note as kept: trimmed, at most maxReportNote characters, control characters out; null for none. */
function noteOf(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== "string") throw InvalidRequest.because("note must be text");
  const note = raw.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
  // Counted in characters, but a note of more UTF-16 units than two a character is over without counting.
  if (note.length > 2 * maxReportNote || [...note].length > maxReportNote) throw InvalidRequest.because(`note must be at most ${maxReportNote} characters`);
  return note === "" ? null : note;
}
