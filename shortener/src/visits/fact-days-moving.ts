import { granularityMs } from "./visit-range.ts";

/** A link's UTC day (YYYY-MM-DD): where a move from the old layout goes on from. */
export interface LinkDay {
  code: string;
  day: string;
}

/** One step of the move: the link-days it moved and the last of them, or "busy" (another replica holds the lock). */
export type FactDaysMoveStep = { moved: number; last?: LinkDay } | "busy";

/** Where the move begins: before every link-day. */
export const beforeEveryLinkDay: LinkDay = { code: "", day: "0001-01-01" };

/**
 * The move of breakdowns from the old layout (a row per link, day and
 * value) into the days' documents (fact-days.ts), a step per turn of the
 * visit log's summing job, each going on after the last link-day the one
 * before moved (not from the start, over the index entries of rows already
 * moved). Past the end it looks once more from the start, for rows written
 * behind it; once that finds nothing, the next look is an hour later: only
 * a replica of the version before ever wrote the old layout.
 */
export class FactDaysMoving {
  private restUntil = 0;
  private after = beforeEveryLinkDay;

  constructor(
    private readonly step: (after: LinkDay) => Promise<FactDaysMoveStep>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One turn; returns the link-days moved. */
  async turn(): Promise<number> {
    if (this.clock() < this.restUntil) return 0;
    const outcome = await this.step(this.after);
    if (outcome === "busy") return 0;
    if (outcome.moved > 0 && outcome.last) {
      this.after = outcome.last;
      return outcome.moved;
    }
    if (this.after !== beforeEveryLinkDay) this.after = beforeEveryLinkDay;
    else this.restUntil = this.clock() + granularityMs.hour;
    return 0;
  }
}
