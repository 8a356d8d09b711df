import { ConfigError, type Env } from "@linkgeo/shared";

/** The problem lines a configuration reader reports for `env` (none when it accepts it). */
export function configProblems(read: (env: Env) => unknown, env: Env): string[] {
  try {
    read(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
