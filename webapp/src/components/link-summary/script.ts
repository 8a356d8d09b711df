/**
 * The link's card: its short link (with Copy), its state and password as
 * badges, title, destination, counts and every option, as anyone may see
 * them; a protected link's addresses only once the page has a credential.
 */
import { copyButton } from "../../client/lib/copy-text.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { formatCount, formatDateTime, regionName } from "../../client/lib/format.ts";
import { deviceNames, stateNames, type LinkRule } from "../../client/lib/link-options.ts";
import type { LinkRecord, LinkStats } from "../../client/lib/link-record.ts";
import { readableUrl } from "../../client/lib/readable-url.ts";
import { linkSummaryParts } from "./parts.ts";

export interface LinkSummary {
  /** The record and its count as last read. */
  show(link: LinkRecord, stats: LinkStats): void;
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
      showState(ui, link);
      showOptions(ui.optionList, link, stats.access_count);
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

/** The options, as anyone may see them; a protected link's addresses are null without a credential: hidden, not absent. */
function showOptions(list: HTMLElement, link: LinkRecord, visits: number): void {
  const hidden = link.password_protected && link.long_url === null;
  const address = (url: string | null, none: string) =>
    url !== null ? h("span", { class: "mono" }, readableUrl(url)) : hidden ? h("span", { class: "muted" }, "hidden by the password") : none;
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
  );
}

function ruleWords(rule: LinkRule): string {
  const { device, country, language } = rule.when;
  return [device && deviceNames[device], country && `in ${regionName(country)}`, language && `language ${language}`].filter(Boolean).join(", ");
}
