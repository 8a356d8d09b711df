import { describeError, type Logger } from "../core/logger.ts";

/** Ends the process; tests pass one that records the code instead. */
export type Exit = (code: number) => never;

/**
 * Opens a listener with `listen`. When its port cannot be had (taken by
 * another process, or not allowed), logs one line naming what and where,
 * and exits with 1: thrown on, the error would reach the last-resort
 * handler, which logs it and keeps a process with nothing to serve alive
 * until it ends with 0, a clean stop to any supervisor.
 */
export function listenOrExit<T>(log: Logger, listener: { what: string; hostname: string; port: number }, listen: () => T, exit: Exit = process.exit): T {
  try {
    return listen();
  } catch (error) {
    log.error("cannot listen", { listener: listener.what, address: `${listener.hostname}:${listener.port}`, error: describeError(error) });
    return exit(1);
  }
}
