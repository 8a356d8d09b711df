/**
 * The playground's search for a place (view.ts): as one types (two letters
 * or more, a moment after the last key), `GET /geocode` with LOCAL, offline,
 * typos forgiven, for up to 6 suggestions; ArrowDown and ArrowUp move
 * through them (aria-activedescendant: the focus stays in the field),
 * Enter or a click chooses one, Escape closes the list. A place chosen goes
 * to `chosen` (the map's pin and the address there).
 */
import type { Coordinates } from "../../world-map.ts";
import { ApiError } from "../../client/lib/api.ts";
import { call, type Answer } from "../../client/lib/api-call.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { placeSearchParts } from "./parts.ts";

type Place = Extract<Answer<"GET /geocode">, { data: unknown }>["data"][number];

export interface PlaceSearchDeps {
  chosen(place: Coordinates & { name: string }): void;
}

/** How long after the last key the search is asked. */
const pauseMs = 150;

export function mount(root: HTMLElement, deps: PlaceSearchDeps): void {
  new PlaceSearch(findParts(root, placeSearchParts), deps);
}

class PlaceSearch {
  private places: Place[] = [];
  private active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asking: AbortController | null = null;

  constructor(
    private readonly ui: FoundParts<typeof placeSearchParts.spec>,
    private readonly deps: PlaceSearchDeps,
  ) {
    ui.input.addEventListener("input", () => {
      clearTimeout(this.timer);
      // Too short to search: the list goes at once, not after the pause.
      if (ui.input.value.trim().length < 2) {
        this.close();
        fill(ui.status);
        return;
      }
      this.timer = setTimeout(() => void this.search(), pauseMs);
    });
    ui.input.addEventListener("keydown", (event) => this.key(event));
    ui.input.addEventListener("blur", () => this.close());
    // Typed before this script arrived: asked at once.
    if (ui.input.value.trim().length >= 2) void this.search();
  }

  private key(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      this.close();
      return;
    }
    if (this.places.length === 0) return;
    // ArrowDown opens a list closed over suggestions still there (the combobox pattern).
    if (this.ui.list.hidden && event.key === "ArrowDown") this.open();
    if (this.ui.list.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.highlight((this.active + step + this.places.length) % this.places.length);
    } else if (event.key === "Enter" && this.active >= 0) {
      event.preventDefault();
      this.choose(this.active);
    }
  }

  private async search(): Promise<void> {
    const { ui } = this;
    const text = ui.input.value.trim();
    this.asking?.abort();
    if (text.length < 2) {
      this.close();
      fill(ui.status);
      return;
    }
    const controller = new AbortController();
    this.asking = controller;
    try {
      const answer = await call("GET /geocode", { query: { q: text, limit: "6", platform: "local" }, signal: controller.signal });
      // Shown only to a field still in use and still holding what was asked (a choice, a Tab or Escape meanwhile close it).
      const current = document.activeElement === ui.input && ui.input.value.trim() === text;
      if (!controller.signal.aborted && current) this.show("data" in answer ? answer.data : []);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.close();
      fill(ui.status, error instanceof ApiError ? `No suggestions: ${error.message}` : "No suggestions: the geocoder did not answer.");
    }
  }

  private show(found: Place[]): void {
    const { ui } = this;
    this.places = found;
    fill(
      ui.list,
      found.map((place, index) => {
        const option = h("li", { id: `place-option-${index}`, role: "option", "aria-selected": "false" }, place.formatted_address);
        // Chosen on mousedown, before the field's blur could close the list.
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          this.choose(index);
        });
        return option;
      }),
    );
    this.active = -1;
    ui.input.removeAttribute("aria-activedescendant");
    if (found.length > 0) this.open();
    else this.close();
    fill(
      ui.status,
      found.length === 0 ? "No place by that name." : `${found.length === 1 ? "1 place" : `${found.length} places`}: use the arrow keys to choose.`,
    );
  }

  private highlight(index: number): void {
    this.active = index;
    for (const [i, option] of [...this.ui.list.children].entries()) option.setAttribute("aria-selected", String(i === index));
    this.ui.input.setAttribute("aria-activedescendant", `place-option-${index}`);
  }

  private choose(index: number): void {
    const place = this.places[index];
    if (!place) return;
    this.ui.input.value = place.formatted_address;
    this.close();
    fill(this.ui.status, `Chosen: ${place.formatted_address}.`);
    this.deps.chosen({ latitude: place.latitude, longitude: place.longitude, name: place.formatted_address });
  }

  private open(): void {
    this.ui.list.hidden = false;
    this.ui.input.setAttribute("aria-expanded", "true");
  }

  /** Closes the list, and forgets the search still waiting or on its way: nothing opens it again behind one's back. */
  private close(): void {
    clearTimeout(this.timer);
    this.asking?.abort();
    this.ui.list.hidden = true;
    this.ui.input.setAttribute("aria-expanded", "false");
    this.ui.input.removeAttribute("aria-activedescendant");
    this.active = -1;
  }
}
