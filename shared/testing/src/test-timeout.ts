/**
 * How long a test may run unless it says otherwise; preload.ts puts it in
 * front of every test file. Suites start real servers, processes and
 * databases, for which Bun's 5 s default is too short on a loaded 2-core
 * machine.
 *
 * It is also the deadline to give code whose own deadline a case does not
 * check (a provider's timeout when the fake answers): no case outlives it,
 * so that deadline never decides the case, however starved the process.
 */
export const defaultTestTimeoutMs = 30_000;
