/** Bytes as MiB, for a report. */
export const megabytes = (bytes: number) => bytes / 1024 / 1024;

/** RSS and heap after a full collection: what a load keeps, not what it passed through. */
export function settledMemory(): { rss: number; heap: number } {
  Bun.gc(true);
  return { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
}
