import { Unauthorized } from "@linkgeo/shared";
import type { AdminTokens, IssuedAdminToken } from "../auth/admin-tokens.ts";
import type { AdminStore } from "./admin-store.ts";

// Verifying against this when the user does not exist keeps the time of a
// failed login the same either way, so usernames cannot be probed. Made on
// first use: hashing at import would slow every start and every test file.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= Bun.password.hash("decoy password for unknown users"));

export class AdminLogin {
  constructor(
    private readonly admins: AdminStore,
    private readonly tokens: AdminTokens,
  ) {}

  async login(username: string, password: string): Promise<IssuedAdminToken> {
    const admin = await this.admins.find(username);
    const valid = await Bun.password.verify(password, admin?.passwordHash ?? (await decoy()));
    if (!admin || !valid) throw new Unauthorized("invalid username or password");
    return this.tokens.issue(admin.username);
  }
}
