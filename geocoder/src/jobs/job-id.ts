import { createHash } from "node:crypto";

/**
 * A job's id: 144 random bits, URL-safe. It is the only key to the job and
 * its results (whoever holds it reads or cancels it), so it is as hard to
 * guess as a manage token, and only its hash is stored.
 */
export function newJobId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
}

/** What the store keeps in place of the id. */
export function jobIdHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}
