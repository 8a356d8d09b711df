import type { LinkQuery, LinkSort, PageSize } from "../../client/lib/admin-links.ts";
import { findParts, showFieldError } from "../../client/lib/find-parts.ts";
import { typingPauseMs } from "../../client/lib/typing-pause.ts";
import { linkFiltersParts } from "./parts.ts";

export interface LinkFiltersDeps {
  /** The query as it is now (what a change is compared with). */
  query(): LinkQuery;
  /** A person changed it: the table goes to its first page with the change. */
  changed(change: Partial<LinkQuery>): void;
}

export interface LinkFilters {
  /** The query's search, filters and sort in their fields. */
  show(query: LinkQuery): void;
  /** A search still waiting for the typing to pause is dropped (Back, Forward). */
  cancelTyping(): void;
}

const tagShape = /^[a-z0-9_-]{1,32}$/;

/** Typing searches once it pauses (lib/typing-pause.ts), Enter at once; the menus change the table as soon as they change. */
export function mount(form: HTMLFormElement, deps: LinkFiltersDeps): LinkFilters {
  const ui = findParts(form, linkFiltersParts);
  let typing: ReturnType<typeof setTimeout> | undefined;

  function search(): void {
    clearTimeout(typing);
    const q = ui.search.value.trim();
    const tag = ui.tag.value.trim().toLowerCase();
    // A tag the API would refuse is said on its field; the table stays as it is.
    const badTag = tag !== "" && !tagShape.test(tag);
    showFieldError(ui.tag, badTag ? "A tag is 1 to 32 of a-z, 0-9, _ or -." : null);
    const query = deps.query();
    const change: Partial<LinkQuery> = {};
    if (q !== query.q) change.q = q;
    if (!badTag && tag !== query.tag) change.tag = tag;
    if (Object.keys(change).length > 0) deps.changed(change);
  }

  for (const input of [ui.search, ui.tag]) {
    input.addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(search, typingPauseMs);
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search();
  });
  ui.sort.addEventListener("change", () => deps.changed({ sort: ui.sort.value as LinkSort }));
  ui.pageSize.addEventListener("change", () => deps.changed({ pageSize: Number(ui.pageSize.value) as PageSize }));
  ui.state.addEventListener("change", () => deps.changed({ state: ui.state.value as LinkQuery["state"] }));

  return {
    show(query) {
      ui.search.value = query.q;
      ui.tag.value = query.tag;
      ui.state.value = query.state;
      ui.sort.value = query.sort;
      ui.pageSize.value = String(query.pageSize);
    },
    cancelTyping: () => clearTimeout(typing),
  };
}
