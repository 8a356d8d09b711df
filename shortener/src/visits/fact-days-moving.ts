import { granularityMs } from "./visit-range.ts";

/**
 * The move of breakdowns from the old layout (a row per link, day and
 * value) into the days' documents (fact-days.ts), a step per turn of the
 * visit log's summing job. Once a step finds nothing left, the next look
 * is an hour later: only a replica of the version before, during a rolling
 * upgrade, still writes the old layout, and the reports read both until
 * then.
 */
export class FactDaysMoving {
  private restUntil = 0;

  constructor(
    /** One step: the link-days it moved, 0 when none were left. */
    private readonly step: () => Promise<number>,
    private readonly clock: () => number = Date.now,
  ) {}

  async turn(): Promise<number> {
    if (this.clock() < this.restUntil) return 0;
    const moved = await this.step();
    if (moved === 0) this.restUntil = this.clock() + granularityMs.hour;
    return moved;
  }
}
