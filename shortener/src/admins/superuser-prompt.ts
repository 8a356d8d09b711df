import type { PromptOptions } from "./terminal-prompt.ts";
import type { NewSuperuser } from "./superuser-creation.ts";
import { passwordProblem, SuperuserError, usernameProblem, type ResolvedSuperuser } from "./superuser-input.ts";

export interface SuperuserDialogue {
  ask(question: string, options: PromptOptions): Promise<string>;
  /** Shown when an answer is refused, before the question is asked again. */
  warn(line: string): void;
  isTaken(username: string): Promise<boolean>;
}

/**
 * Asks for what `given` lacks, like Django's createsuperuser: a refused
 * answer is explained and asked again; the password is typed twice.
 */
export async function askForSuperuser(given: ResolvedSuperuser, { ask, warn, isTaken }: SuperuserDialogue): Promise<NewSuperuser> {
  const taken = (username: string) => `the username "${username}" is already taken`;

  // A taken username given as a flag fails before the user types a password for nothing.
  if (given.username !== undefined && (await isTaken(given.username))) throw new SuperuserError(taken(given.username));

  let username = given.username;
  while (username === undefined) {
    const answer = (await ask("Username: ", { echo: true })).trim();
    const problem = usernameProblem(answer) ?? ((await isTaken(answer)) ? taken(answer) : null);
    if (problem) warn(`Error: ${problem}.`);
    else username = answer;
  }

  let password = given.password;
  while (password === undefined) {
    const first = await ask("Password: ", { echo: false });
    const problem = passwordProblem(first);
    if (problem) {
      warn(`Error: ${problem}.`);
      continue;
    }
    if ((await ask("Password (again): ", { echo: false })) !== first) warn("Error: the passwords do not match.");
    else password = first;
  }

  return { username, password };
}
