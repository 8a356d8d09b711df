import { parseJson } from "@linkgeo/shared";

/**
 * The second budget of a login (an admin's or a person's), per username across all client
 * addresses: a guesser with many addresses still gets only so many tries at
 * one account. Taken after the body is read (the name is in it) and before
 * the shortener sees it (admission/admission.ts); a refusal is 429 with
 * Retry-After. A body without a usable username costs nothing here: the
 * shortener answers it 400.
 *
 * The price: someone who knows an admin's name can spend that admin's
 * budget, which blocks new logins under that name (not tokens already
 * issued) until it refills. RATE_LIMIT_LOGIN_USER=off turns it off.
 *
 * The bucket of the username a login body names; undefined: it names none.
 */
export function loginAttemptBucket(body: ArrayBuffer | null): string | undefined {
  const username = usernameIn(body);
  return username === undefined ? undefined : `login-user:${keyOf(username)}`;
}

function usernameIn(body: ArrayBuffer | null): string | undefined {
  if (body === null) return undefined;
  try {
    const parsed: unknown = parseJson(new TextDecoder().decode(body));
    const username = (parsed as { username?: unknown } | null)?.username;
    return typeof username === "string" && username !== "" ? username : undefined;
  } catch {
    return undefined;
  }
}

// A digest keeps bucket keys short and keeps names out of Redis. In lower case: a person's username is
// matched in any case, so `Alice` and `alice` are one account's tries (an admin's names share it too).
function keyOf(username: string): string {
  return new Bun.CryptoHasher("sha256").update(username.toLowerCase()).digest("hex").slice(0, 32);
}
