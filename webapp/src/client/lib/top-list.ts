import { h } from "./dom.ts";
import { formatCount } from "./format.ts";
import { valueLabel, type ChartFilter, type List, type TopEntry } from "./visit-report.ts";

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

/**
 * A ranked list of a visits report; each row says its visits (as `count`
 * counts them) and their share of the list's sum (every visit of the range
 * it counts: a list ends with "other"), and is shaded by its share of the
 * first's. A named value's row is a button that charts its visits alone
 * (`choose`); the chosen one is pressed.
 */
export function topList(
  list: List,
  entries: TopEntry[],
  count: (entry: TopEntry) => number,
  chosen: ChartFilter | null,
  choose: (list: List, value: string) => void,
): HTMLElement {
  if (entries.length === 0) return h("p", { class: "muted" }, list === "bots" ? "No bots yet" : "No visits yet");
  const total = entries.reduce((sum, entry) => sum + count(entry), 0);
  const most = Math.max(1, ...entries.map(count));
  return h(
    "ol",
    { class: "ranked shared" },
    entries.map((entry) => {
      const row = h("li", {}, ...rowContent(list, entry, count(entry), total, chosen, choose));
      row.style.setProperty("--share", `${Math.round((count(entry) / most) * 100)}%`);
      return row;
    }),
  );
}

function rowContent(list: List, entry: TopEntry, visits: number, total: number, chosen: ChartFilter | null, choose: (list: List, value: string) => void) {
  const share = total > 0 ? visits / total : 0;
  // Under 1 % but not none reads "<1 %", never a misleading "0 %".
  const shareText = share > 0 && share < 0.005 ? `<${percent.format(0.01)}` : percent.format(share);
  const label = h("span", {}, valueLabel(list, entry.value));
  const figures = h("span", { class: "count" }, formatCount(visits), h("span", { class: "share" }, ` · ${shareText}`));
  // "other" is the rest of the list, not one value: it cannot be charted alone.
  if (entry.value === "other") return [label, figures];
  const pressed = chosen?.list === list && chosen.value === entry.value;
  return [
    h(
      "button",
      {
        type: "button",
        class: "row-filter",
        "aria-pressed": String(pressed),
        "data-list": list,
        "data-value": entry.value,
        onclick: () => choose(list, entry.value),
      },
      label,
      figures,
    ),
  ];
}
