import { forwardJobsPath, geocodeJobsPath } from "../wire/geocode-jobs-path.ts";

/** Path segments that are secrets: a geocoding job's id (the key to its results) and an invite's token (it makes a member). */
const secretsInPaths: ReadonlyArray<[RegExp, string]> = [
  [new RegExp(`^(${geocodeJobsPath}/)[^/]+`), "$1:id"],
  [new RegExp(`^(${forwardJobsPath}/)[^/]+`), "$1:id"],
  [/^(\/+invites\/+)[^/]+/i, "$1:token"],
  // An invite's token wherever else a path or a raw request target carries it.
  [/lgi_[A-Za-z0-9_-]+/g, "lgi_:token"],
];

/**
 * A path as a log may show it: a job's id is the key to its results (no
 * other credential guards them), and an invite's token lets whoever holds
 * it join a workspace, so neither is ever written down.
 */
export function loggablePath(path: string): string {
  return secretsInPaths.reduce((shown, [secret, placeholder]) => shown.replace(secret, placeholder), path);
}
