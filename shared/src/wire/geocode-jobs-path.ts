/**
 * Where geocoding jobs live: `POST /reverse-geocode/jobs` makes one,
 * `/reverse-geocode/jobs/<id>` reads or cancels it. The id is the key to
 * the job's results, so the logs never show it (loggablePath).
 */
export const geocodeJobsPath = "/reverse-geocode/jobs";
