// Verifying against this when there is no account keeps the time of a failed
// sign-in the same either way, so usernames cannot be probed. Made on first
// use: hashing at import would slow every start and every test file.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= Bun.password.hash("decoy password for unknown users"));

/**
 * Whether `password` is the one `passwordHash` was made from; with no hash
 * (no such account), false, after the same work as a real check. The one
 * password check of admins and people alike.
 */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  const valid = await Bun.password.verify(password, passwordHash ?? (await decoy()));
  return passwordHash !== undefined && valid;
}
