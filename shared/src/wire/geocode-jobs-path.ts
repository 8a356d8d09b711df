/**
 * Where geocoding jobs live: `POST /reverse-geocode/jobs` makes a job of
 * points, `POST /geocode/jobs` one of names or addresses (forward);
 * `<path>/<id>` reads or cancels it. The id is the key to the job's
 * results, so the logs never show it (loggablePath).
 */
export const geocodeJobsPath = "/reverse-geocode/jobs";
export const forwardJobsPath = "/geocode/jobs";

/** Both kinds' paths, as the gateway and the logs match them. */
export const jobPaths: readonly string[] = [geocodeJobsPath, forwardJobsPath];
