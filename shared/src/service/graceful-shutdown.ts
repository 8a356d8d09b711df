import { describeError, type Logger } from "../core/logger.ts";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * On SIGTERM or SIGINT runs the steps in order (stop taking requests, finish
 * in-flight work, close clients), then exits. A second signal exits at once.
 */
export function onShutdownSignal(log: Logger, steps: ShutdownStep[], exit = (code: number) => process.exit(code)) {
  let stopping = false;
  const handler = async (signal: string) => {
    if (stopping) return exit(1);
    stopping = true;
    log.info("shutting down", { signal });
    let failed = false;
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        log.error("shutdown step failed", { step: step.name, error: describeError(error) });
      }
    }
    log.info("stopped");
    exit(failed ? 1 : 0);
  };
  process.on("SIGTERM", () => void handler("SIGTERM"));
  process.on("SIGINT", () => void handler("SIGINT"));
}
