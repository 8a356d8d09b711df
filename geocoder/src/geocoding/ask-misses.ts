import type { SingleFlight } from "../cache/single-flight.ts";

/** One key's outcome in a batch: its answer, or why it has none. */
export type MissOutcome<T> = { answer: T } | { error: unknown };

/**
 * A batch's misses (or a job claim's) down the chain, `inFlight` at a time,
 * each one's outcome set by its key: a failure is its own, never the
 * batch's. With `joinFlights`, a single query's flight for the same key is
 * joined (and caches its own answer); a stoppable patient pass does not
 * join, so no single query ever gets its NotAsked. The reverse and the
 * forward geocoder both ask their misses here.
 */
export async function askMisses<T>(
  misses: readonly string[],
  ask: (key: string) => Promise<T>,
  outcomes: Map<string, MissOutcome<T>>,
  options: { inFlight: number; flights: SingleFlight<T>; joinFlights: boolean },
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < misses.length) {
      const key = misses[next++]!;
      try {
        outcomes.set(key, { answer: await (options.joinFlights ? options.flights.run(key, () => ask(key)) : ask(key)) });
      } catch (error) {
        outcomes.set(key, { error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.inFlight, misses.length) }, worker));
}
