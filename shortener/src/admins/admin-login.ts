import { Unauthorized } from "@linkgeo/shared";
import type { AdminStore } from "./admin-store.ts";

// Verifying against this when the user does not exist keeps the time of a
// failed login the same either way, so usernames cannot be probed. Made on
// first use: hashing at import would slow every start and every test file.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= Bun.password.hash("decoy password for unknown users"));

/** The password check of both ways to sign in: an admin token, or a session cookie. */
export class AdminLogin {
  constructor(private readonly admins: AdminStore) {}

  /** The admin's username when the password is theirs; 401 otherwise, taking the same time whether or not the user exists. */
  async check(username: string, password: string): Promise<string> {
    const admin = await this.admins.find(username);
    const valid = await Bun.password.verify(password, admin?.passwordHash ?? (await decoy()));
    if (!admin || !valid) throw Unauthorized.because("invalid username or password");
    return admin.username;
  }
}
