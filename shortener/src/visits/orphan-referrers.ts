import { otherValue, withinNamedValues, type NamedSoFar } from "./named-values.ts";
import type { OrphanCount } from "./orphan-visit-store.ts";

/** Counts grouped by UTC day, the days in order (so two writers take their days' locks in the same order). */
export function orphanCountsByDay(counts: readonly OrphanCount[]): Array<[day: string, counts: OrphanCount[]]> {
  const days = new Map<string, OrphanCount[]>();
  for (const count of counts) {
    const ofDay = days.get(count.day);
    if (ofDay) ofDay.push(count);
    else days.set(count.day, [count]);
  }
  return [...days].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * One day's counts with the referrers the day cannot name any more counted
 * as "other", and counts of the same domain, kind and referrer merged: the rule of
 * link breakdowns (`withinNamedValues`), over every domain and kind at once. `named`
 * is what the day already names (referrers other than "other", any domain
 * and kind).
 * Every visit stays counted once.
 */
export function withinNamedReferrers(counts: readonly OrphanCount[], named: NamedSoFar): OrphanCount[] {
  const perReferrer = new Map<string, number>();
  for (const count of counts) perReferrer.set(count.referrer, (perReferrer.get(count.referrer) ?? 0) + count.humans + count.bots);
  const kept = withinNamedValues(perReferrer, named);
  const merged = new Map<string, OrphanCount>();
  for (const count of counts) {
    const referrer = kept.has(count.referrer) ? count.referrer : otherValue;
    const key = `${count.domainId}\n${count.kind}\n${referrer}`;
    const into = merged.get(key);
    if (into) {
      into.humans += count.humans;
      into.bots += count.bots;
    } else {
      merged.set(key, { ...count, referrer });
    }
  }
  return [...merged.values()];
}
