/**
 * The link's card: its short link (with Copy), destination and counts as
 * anyone may see them; its state and password as badges, title and every
 * option once the page reads it with a credential (docs/people.md:
 * "Private by default"), a protected link's addresses too.
 */
import { copyButton } from "../../client/lib/copy-text.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, formatDateTime, regionName } from "../../client/lib/format.ts";
import { deviceNames, stateNames, type LinkRule } from "../../client/lib/link-options.ts";
import { readsOptions, type LinkRecord, type LinkStats, type PublicRecord } from "../../client/lib/link-record.ts";
import { readableUrl } from "../../client/lib/readable-url.ts";
import { linkSummaryParts } from "./parts.ts";

export interface LinkSummary {
  /** The record and its count as last read. */
  show(link: PublicRecord, stats: LinkStats): void;
  /** Says who is looking with more than the public view ("" for nobody). */
  showAccess(note: string): void;
}

type Parts = FoundParts<typeof linkSummaryParts.spec>;

export function mountLinkSummary(root: HTMLElement): LinkSummary {
  const ui = findParts(root, linkSummaryParts);
  copyButton(ui.copyShort, ui.shortUrl, ui.copyShortStatus);
  return {
    show(link, stats) {
      ui.shortUrl.value = link.link;
      showDestination(ui, link.long_url);
      ui.visitCount.textContent = formatCount(stats.access_count);
      ui.createdAt.textContent = formatDateTime(link.created_at);
      ui.lastVisit.textContent = formatDateTime(stats.last_accessed_at);
      if (readsOptions(link)) {
        showState(ui, link);
        showOptions(ui.optionList, link, stats.access_count);
      } else showPrivate(ui);
    },
    showAccess(note) {
      ui.accessNote.textContent = note;
    },
  };
}

function showDestination(ui: Parts, longUrl: string | null): void {
  show(ui.destination, longUrl !== null);
  show(ui.destinationHidden, longUrl === null);
  if (longUrl === null) return;
  ui.destination.href = longUrl;
  ui.destination.textContent = readableUrl(longUrl);
  ui.destination.title = longUrl;
}

function showState(ui: Parts, link: LinkRecord): void {
  fill(
    ui.badges,
    h("span", { class: `badge ${link.state}` }, stateNames[link.state]),
    link.password_protected && h("span", { class: "badge protected" }, "Password"),
  );
  ui.linkTitle.textContent = link.title ?? "";
  show(ui.linkTitle, link.title !== null);
}

/** What a record without its options shows: no badge, no title, one line saying why. */
function showPrivate(ui: Parts): void {
  fill(ui.badges);
  show(ui.linkTitle, false);
  fill(ui.optionList, h("dt", {}, "Options"), h("dd", {}, h("span", { class: "muted" }, "private: shown to the link's owners only")));
}

/** The options, as a reader of the link sees them. */
function showOptions(list: HTMLElement, link: LinkRecord, visits: number): void {
  const address = (url: string | null, none: string) => (url !== null ? h("span", { class: "mono" }, readableUrl(url)) : none);
  const entry = (term: string, ...value: (Node | string)[]) => [h("dt", {}, term), h("dd", {}, ...value)];
  const rules =
    link.rules.length === 0
      ? "none"
      : h(
          "ol",
          {},
          link.rules.map((rule) => h("li", {}, ruleWords(rule), " → ", address(rule.url, ""))),
        );
  fill(
    list,
    entry("Expires", link.expires_at ? formatDateTime(link.expires_at) : "never"),
    entry("Visits allowed", link.max_visits === null ? "no limit" : `${formatCount(link.max_visits)} (${formatCount(Math.min(visits, link.max_visits))} used)`),
    entry("Once expired or used up", address(link.expired_url, "a page saying the link is no longer available")),
    entry("Redirect status", link.redirect_status === null ? "the service's default" : String(link.redirect_status)),
    entry("Password", link.password_protected ? "yes: visitors must give it" : "no"),
    entry("Tags", link.tags.length === 0 ? "none" : link.tags.join(", ")),
    entry("Forwards the query string", link.forward_query ? "yes" : "no"),
    entry("Rules", rules),
    entry("Visits report", link.public_stats ? "public: anyone may read it" : "private"),
  );
}

function ruleWords(rule: LinkRule): string {
  const { device, country, language } = rule.when;
  return [device && deviceNames[device], country && `in ${regionName(country)}`, language && `language ${language}`].filter(Boolean).join(", ");
}
