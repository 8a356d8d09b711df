/**
 * What every process of a test run starts its allocator with: the test
 * workers (parallel-files.ts) and the services they start
 * (service-process.ts), and what those start in turn, as they inherit it.
 *
 * Bun allocates with mimalloc, which by default hands memory it freed back
 * to the system 10 ms later (`madvise`), to fault it in again at the next
 * allocation. A run frees and allocates all the time, and on this kind of
 * virtual machine those system calls are dear: a file of API tests spent
 * 1.6-1.9 s of its 5.9-6.9 core-seconds in the kernel with the default and
 * 1.1-1.2 s of 5.2-5.3 with a delay of a second (3 alternating rounds). A
 * second keeps what a process holds bounded by what it used in the last
 * second, so no worker's memory grows over a run.
 *
 * MIMALLOC_PURGE_DELAY in the caller's environment wins (`=10` for the
 * default), so a run can be measured both ways.
 */
export const allocatorEnv: Record<string, string> = { MIMALLOC_PURGE_DELAY: process.env.MIMALLOC_PURGE_DELAY ?? "1000" };
