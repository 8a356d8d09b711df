import { parseArgs } from "node:util";
import { passwordMaxLength, passwordMinLength, usernameMaxLength } from "./admin-limits.ts";

/**
 * What `bun run createsuperuser` was given, and the rules a new admin must
 * meet. Pure: the entry file passes argv, env and whether stdin is a terminal.
 */

/** A problem the user can fix; printed as one line, and the command exits 1. */
export class SuperuserError extends Error {
  override name = "SuperuserError";
}

/** The help text; `defaultDatabase` is DATABASE_URL's default, as the service has it. */
export const usage = (defaultDatabase: string) => `Usage: bun run createsuperuser [--username NAME] [--password PASS | --password-stdin] [--no-input]

Creates an admin in the database named by DATABASE_URL (default ${defaultDatabase}).
Values missing from the flags come from SUPERUSER_USERNAME and SUPERUSER_PASSWORD,
then, when stdin is a terminal and --no-input is absent, from prompts.

  --username NAME     1-${usernameMaxLength} characters: letters, digits and @ . + - _
  --password PASS     at least 8 characters (visible in the process list: prefer the others)
  --password-stdin    read the password from stdin (one trailing newline is dropped)
  --no-input          never prompt; fail when a value is missing
  -h, --help          show this help`;

export interface SuperuserFlags {
  username?: string;
  password?: string;
  passwordStdin: boolean;
  noInput: boolean;
  help: boolean;
}

const options = {
  username: { type: "string" },
  password: { type: "string" },
  "password-stdin": { type: "boolean" },
  "no-input": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * `--name value` and `--name=value`, by node:util's parseArgs: anything
 * unknown, a positional argument, or a value that looks like a flag
 * (`--username --no-input`; write `--password=-x` for a password starting
 * with a dash) is an error, not ignored.
 */
export function parseSuperuserArgs(argv: readonly string[]): SuperuserFlags {
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new SuperuserError(`${(error as Error).message.replace(/\s*\n\s*/g, " ")} (see --help)`);
  }
  if (values.password !== undefined && values["password-stdin"]) throw new SuperuserError("use --password or --password-stdin, not both");
  return {
    ...(values.username !== undefined && { username: values.username }),
    ...(values.password !== undefined && { password: values.password }),
    passwordStdin: values["password-stdin"] === true,
    noInput: values["no-input"] === true,
    help: values.help === true,
  };
}

/** What the environment gave (SUPERUSER_USERNAME, SUPERUSER_PASSWORD: config.ts reads them). */
export interface SuperuserEnv {
  username?: string;
  password?: string;
}

export const usernameRule = `1-${usernameMaxLength} characters: letters, digits and @ . + - _`;

/** Django's default username rule (ASCII only). */
export function usernameProblem(username: string): string | null {
  if (username.length === 0) return "the username must not be empty";
  if (username.length > usernameMaxLength) return `the username must be at most ${usernameMaxLength} characters (got ${username.length})`;
  if (!/^[A-Za-z0-9@.+_-]+$/.test(username)) return `the username may only contain letters, digits and @ . + - _ (got "${username}")`;
  return null;
}

export function passwordProblem(password: string): string | null {
  // Characters, not UTF-16 units, for the minimum: "🔑🔑🔑🔑" is four.
  if ([...password].length < passwordMinLength) return `the password must be at least ${passwordMinLength} characters`;
  // UTF-16 units for the maximum: that is what the login route's schema counts.
  if (password.length > passwordMaxLength) return `the password must be at most ${passwordMaxLength} characters`;
  return null;
}

/** The password as given on stdin: one trailing newline (from `echo` or a file) is not part of it. */
export function passwordFromStdin(text: string): string {
  return text.replace(/\r?\n$/, "");
}

export interface SuperuserSources {
  flags: SuperuserFlags;
  env: SuperuserEnv;
  /** The text read from stdin, when `--password-stdin` was given. */
  stdin?: string;
  stdinIsTTY: boolean;
}

/** What was given, validated; the absent values are asked for interactively. */
export interface ResolvedSuperuser {
  username?: string;
  password?: string;
}

/**
 * Flags win over the environment. A value that was given but is invalid is
 * an error even when prompting is possible: a script must not hang on a
 * prompt. A missing value is an error when there is nobody to ask.
 */
export function resolveSuperuser({ flags, env, stdin, stdinIsTTY }: SuperuserSources): ResolvedSuperuser {
  const username = flags.username ?? env.username;
  const password = flags.password ?? (flags.passwordStdin ? passwordFromStdin(stdin ?? "") : env.password);

  const problem = (username !== undefined ? usernameProblem(username) : null) ?? (password !== undefined ? passwordProblem(password) : null);
  if (problem) throw new SuperuserError(problem);

  const missing = [
    ...(username === undefined ? ["the username (--username or SUPERUSER_USERNAME)"] : []),
    ...(password === undefined ? ["the password (--password, --password-stdin or SUPERUSER_PASSWORD)"] : []),
  ];
  const cannotPrompt = flags.noInput
    ? "--no-input was given"
    : flags.passwordStdin
      ? "stdin holds the password"
      : !stdinIsTTY
        ? "stdin is not a terminal"
        : null;
  if (missing.length > 0 && cannotPrompt) throw new SuperuserError(`missing ${missing.join(" and ")}; cannot prompt: ${cannotPrompt}`);
  return { username, password };
}
