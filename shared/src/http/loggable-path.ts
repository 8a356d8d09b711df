import { geocodeJobsPath } from "../wire/geocode-jobs-path.ts";

const jobIdInPath = new RegExp(`^(${geocodeJobsPath}/)[^/]+`);

/**
 * A path as a log may show it: a job's id is the key to its results (no
 * other credential guards them), so it is never written down.
 */
export function loggablePath(path: string): string {
  return path.replace(jobIdInPath, "$1:id");
}
