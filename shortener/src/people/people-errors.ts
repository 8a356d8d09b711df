import { HttpError } from "@linkgeo/shared";

/** 409 `conflict`: the username is someone's already (in any case: usernames are kept in lower case). */
export class UsernameTaken extends HttpError {
  private constructor(username: string) {
    super(409, "conflict", `the username "${username}" is taken`);
  }

  static named(username: string): UsernameTaken {
    return new UsernameTaken(username);
  }
}
