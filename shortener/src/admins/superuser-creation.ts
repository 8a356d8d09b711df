import type { Admin, AdminStore } from "./admin-store.ts";
import { passwordProblem, SuperuserError, usernameProblem } from "./superuser-input.ts";

export interface NewSuperuser {
  username: string;
  password: string;
}

/** Stores the admin with an argon2id hash of the password; a taken username is an error. */
export async function createSuperuser(admins: AdminStore, clock: () => Date, { username, password }: NewSuperuser): Promise<Admin> {
  // Checked again here so no caller can store an admin the rules refuse.
  const problem = usernameProblem(username) ?? passwordProblem(password);
  if (problem) throw new SuperuserError(problem);
  const admin: Admin = { username, passwordHash: await Bun.password.hash(password, "argon2id"), createdAt: clock() };
  if (!(await admins.insert(admin))) throw new SuperuserError(`the username "${username}" is already taken`);
  return admin;
}
