import type { LinkVisits } from "./link-visits.ts";

/** How visits came: `unlocked`, with the right password of a protected link (the only way such a link counts one). */
export interface VisitAccess {
  unlocked: boolean;
}

/** What a write made of one code's visits: where they lead (as the writer knows it) and how many went through. */
export interface VisitClaim<Destination> {
  /** With the count after the write. */
  destination: Destination;
  /** 0 … the visits asked for; the others lead nowhere. */
  granted: number;
}

/**
 * Where the VisitCounter writes its batches: the port visits/ owns and the
 * link store implements (`LinkStore.recordVisits` says what a write does).
 * `Destination` is the store's word for where a link leads; the counter
 * hands it to each visit's waiter without reading it.
 */
export interface VisitWriter<Destination> {
  recordVisits(visits: ReadonlyMap<string, LinkVisits>, at: Date, deadline?: AbortSignal, access?: VisitAccess): Promise<Map<string, VisitClaim<Destination>>>;
}
