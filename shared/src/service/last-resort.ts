import { describeError, type Logger } from "../core/logger.ts";

/**
 * The last line of defence: an error no handler caught (a throw in a timer,
 * a promise nobody awaited) is logged and the process keeps serving, instead
 * of Bun's default of printing it and exiting, which would let one odd
 * request take a service down for everyone. Every such line is a bug to fix.
 */
export function keepServingOnUnexpectedErrors(log: Logger, target: Pick<NodeJS.Process, "on"> = process): void {
  target.on("uncaughtException", (error) => {
    log.error("uncaught exception, still serving", { error: describeError(error) });
  });
  target.on("unhandledRejection", (reason) => {
    log.error("unhandled promise rejection, still serving", { error: describeError(reason) });
  });
}
