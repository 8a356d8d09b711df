import { fill, show } from "./dom.ts";
import type { TopEntry } from "./visit-report.ts";
import { fetchWorldMap } from "./world-map-file.ts";

/**
 * The world map of a visits report's countries: fetched once, then each
 * named country shaded by its share of the most visited one's visits; the
 * rest stay plain. Decorative (the list says the same): hidden when it
 * cannot be had.
 */
export class CountryShading {
  private readonly map: Promise<SVGSVGElement | null>;

  constructor(private readonly box: HTMLElement) {
    this.map = fetchWorldMap(box.dataset.mapUrl ?? "").then(
      (svg) => {
        svg.setAttribute("class", "world-map choropleth");
        svg.setAttribute("focusable", "false");
        fill(box, svg);
        return svg;
      },
      () => null,
    );
  }

  async shade(entries: readonly TopEntry[], count: (entry: TopEntry) => number): Promise<void> {
    const svg = await this.map;
    if (!svg) return show(this.box, false);
    const most = Math.max(1, ...entries.map(count));
    const shares = new Map(entries.filter((entry) => /^[A-Z]{2}$/.test(entry.value)).map((entry) => [entry.value, count(entry) / most]));
    for (const path of svg.querySelectorAll<SVGPathElement>("path[data-country]")) {
      const share = shares.get(path.dataset.country ?? "");
      path.classList.toggle("visited", share !== undefined);
      if (share === undefined) path.style.removeProperty("--share");
      else path.style.setProperty("--share", `${Math.round(20 + share * 80)}%`);
    }
  }
}
