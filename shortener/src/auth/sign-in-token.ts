import { hashSecretToken, newSecretToken, secretTokenShape } from "./secret-token.ts";

/** Every person's sign-in token (POST /login) starts so: a token that does not is another kind's, and a leaked one is easy to find. */
export const signInTokenPrefix = "lgs_";

// The prefix and 32 random bytes in base64url: all that is ever made, and all that is looked up.
const tokenShape = secretTokenShape(signInTokenPrefix);

/** A person as a sign-in token makes a request theirs. */
export interface SignedInPerson {
  id: number;
  username: string;
}

/** Who a sign-in token is of (people/person-sessions.ts): null for one unknown, ended or expired. */
export interface SignInTokens {
  verify(token: string): Promise<SignedInPerson | null>;
}

/** Whether `token` is shaped as a sign-in token, whole: the prefix alone would take a manage token that happens to begin so. */
export function isSignInTokenShaped(token: string): boolean {
  return tokenShape.test(token);
}

/** A new token: the prefix and 32 random bytes; as an API key, its SHA-256 is all that is kept. */
export function newSignInToken(): { token: string; hash: string } {
  return newSecretToken(signInTokenPrefix);
}

export const hashSignInToken = hashSecretToken;
