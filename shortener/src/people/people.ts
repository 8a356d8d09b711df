import { InvalidRequest, Unauthorized } from "@linkgeo/shared";
import { passwordMatches } from "../auth/password-check.ts";
import { passwordProblem, usernameProblem } from "../admins/superuser-input.ts";
import type { PeopleStore } from "./people-store.ts";
import type { NewPerson, Person } from "./person.ts";
import { PersonNotFound, SoleOwner, UsernameTaken } from "./people-errors.ts";

export interface PeopleDeps {
  store: PeopleStore;
  clock: () => Date;
  /** The password hash (argon2id, as an admin's); a test may pass a cheaper one. */
  hashPassword?: (password: string) => Promise<string>;
}

/**
 * The rules of people's accounts (docs/people.md): a username of the
 * admins' rule (letters, digits and @ . + - _, at most 150), kept in lower
 * case so no one passes for another by case; a password of the admins'
 * rule (8 to 1,024 characters), kept as an argon2id hash.
 */
export class People {
  private readonly hashPassword: (password: string) => Promise<string>;

  constructor(private readonly deps: PeopleDeps) {
    this.hashPassword = deps.hashPassword ?? ((password) => Bun.password.hash(password));
  }

  /** A new person; 400 naming the field that breaks its rule, 409 when the username is taken. */
  async create(input: { username: unknown; password: unknown }): Promise<Person> {
    const account = await this.newAccount(input);
    const person = await this.deps.store.insert(account);
    if (!person) throw UsernameTaken.named(account.username);
    return person;
  }

  /**
   * A person to be stored, its password hashed: 400 naming the field that
   * breaks its rule. For a store that makes the person in a transaction of
   * its own (an invite accepted by someone new), which says when the
   * username is taken (`UsernameTaken`).
   */
  async newAccount(input: { username: unknown; password: unknown }): Promise<NewPerson> {
    if (typeof input.username !== "string") throw InvalidRequest.because("username must be a string");
    if (typeof input.password !== "string") throw InvalidRequest.because("password must be a string");
    const usernameRefusal = usernameProblem(input.username);
    if (usernameRefusal) throw InvalidRequest.because(usernameRefusal.replace(/ \(got "[\s\S]*"\)$/, ""));
    const passwordRefusal = passwordProblem(input.password);
    if (passwordRefusal) throw InvalidRequest.because(passwordRefusal);
    return { username: input.username.toLowerCase(), passwordHash: await this.hashPassword(input.password), createdAt: this.deps.clock() };
  }

  /**
   * Deletes person `id` with their sign-ins (ended at once), memberships
   * and the keys they made: 404 for no such person, 409 while they are the
   * only owner of a workspace. Their username, for the audit log.
   */
  async delete(id: number): Promise<string> {
    const outcome = await this.deps.store.delete(id);
    if (outcome === "unknown") throw PersonNotFound.withId(id);
    if ("soleOwnerOf" in outcome) throw SoleOwner.of(outcome.soleOwnerOf);
    return outcome.deleted;
  }

  /** The person whose username (in any case) and password these are; 401 otherwise, taking the same time whether or not they exist. */
  async check(username: string, password: string): Promise<Person> {
    const person = await this.deps.store.findByUsername(username.toLowerCase());
    const matches = await passwordMatches(person?.passwordHash, password);
    if (!person || !matches) throw Unauthorized.because("invalid username or password");
    return person;
  }
}
