/** How long an admin stays signed in, by admin token or by session cookie: 12 hours. */
export const adminLifetimeMs = 12 * 60 * 60 * 1000;
