import { Unauthorized } from "@linkgeo/shared";
import { passwordMatches } from "../auth/password-check.ts";
import type { AdminStore } from "./admin-store.ts";

/** The password check of both ways to sign in: an admin token, or a session cookie. */
export class AdminLogin {
  constructor(private readonly admins: AdminStore) {}

  /** The admin's username when the password is theirs; 401 otherwise, taking the same time whether or not the user exists. */
  async check(username: string, password: string): Promise<string> {
    const admin = await this.admins.find(username);
    // Checked whether or not the admin exists: the same time either way.
    const matches = await passwordMatches(admin?.passwordHash, password);
    if (!admin || !matches) throw Unauthorized.because("invalid username or password");
    return admin.username;
  }
}
