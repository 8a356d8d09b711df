/**
 * The budgets a client address has, one per kind of request (the route
 * table's `limit`), and `key`, an API key's own budget, reported as a class
 * of its own. `unlock` (password tries) is limited per link; a try spends
 * the address's `api` budget too. `bulk` takes one token per request,
 * whatever its size. `misses`: redirects refused for the client's unknown
 * codes (rate-limit/miss-budgets.ts).
 */
export type RateClass = "create" | "bulk" | "api" | "redirect" | "login" | "unlock" | "key" | "misses";
