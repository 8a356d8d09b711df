import { readConfigOrExit, type Env } from "../core/config.ts";
import { createLogger, type Logger } from "../core/logger.ts";
import { keepServingOnUnexpectedErrors } from "./last-resort.ts";
import type { ServiceBasics } from "./service-config.ts";

/**
 * A service's first steps, the same in every `main.ts`: its configuration
 * read once (a wrong one stops the process with every problem listed), its
 * logger at the configured level and format, and the last line of defence
 * in place before anything else can throw.
 */
export function beginService<Config extends Pick<ServiceBasics, "logLevel" | "logFormat">>(
  service: string,
  read: (env: Env) => Config,
): { config: Config; log: Logger } {
  const config = readConfigOrExit(service, read);
  const log = createLogger({ service, level: config.logLevel, format: config.logFormat });
  keepServingOnUnexpectedErrors(log);
  return { config, log };
}
