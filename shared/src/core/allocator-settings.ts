/**
 * What a service process starts its allocator with, wherever it is
 * started: the Dockerfile's ENV (held to this by gateway/test/compose.test.ts),
 * `bun run start`'s children, and every process of a test run (the
 * workers and the services and commands tests start).
 *
 * Bun allocates with mimalloc, which by default hands memory it freed back
 * to the system 10 ms later (`madvise`), to fault it in again at its next
 * allocation. A service frees and allocates with every request, and on a
 * virtual machine those system calls are dear. With a second instead, a
 * gateway batching redirects under 32 connections took 64-73 CPU µs per
 * redirect against 77-84, and the shortener behind it 46-54 against 54-61,
 * in 3 alternating rounds; four whole test runs in turn took 454 and 482 s
 * with it against 514 and 492 s without. Freed memory still goes back to
 * the system, later (what a process holds was not measured).
 *
 * MIMALLOC_PURGE_DELAY set in the environment wins (`10` is mimalloc's own).
 */
export const allocatorPurgeDelayMs = 1000;

/** The variables to start a Bun process with: `env`'s own MIMALLOC_PURGE_DELAY if it has one, else `allocatorPurgeDelayMs`. */
export function allocatorEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return { MIMALLOC_PURGE_DELAY: env.MIMALLOC_PURGE_DELAY ?? String(allocatorPurgeDelayMs) };
}
