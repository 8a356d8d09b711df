import { ConfigError, describeError } from "@linkgeo/shared";
import { createSuperuser, type NewSuperuser } from "./admins/superuser-creation.ts";
import { parseSuperuserArgs, resolveSuperuser, SuperuserError, usage } from "./admins/superuser-input.ts";
import { askForSuperuser } from "./admins/superuser-prompt.ts";
import { PromptAborted, TerminalPrompt } from "./admins/terminal-prompt.ts";
import { readSuperuserCommandConfig } from "./config.ts";
import { defaultSqlitePath, databaseWhere } from "./storage/database-target.ts";
import { openDatabase, type Database } from "./storage/open-database.ts";

// `bun run createsuperuser`: the command's composition root, as main.ts is the service's, and the only file of
// the command that reads argv, env and stdin.
process.exit(await main());

async function main(): Promise<number> {
  let database: Database | undefined;
  let prompt: TerminalPrompt | undefined;
  try {
    const flags = parseSuperuserArgs(process.argv.slice(2));
    if (flags.help) {
      process.stdout.write(`${usage(`sqlite:///${defaultSqlitePath}`)}\n`);
      return 0;
    }
    const env = readSuperuserCommandConfig(process.env);
    const given = resolveSuperuser({
      flags,
      env,
      stdin: flags.passwordStdin ? await Bun.stdin.text() : undefined,
      stdinIsTTY: process.stdin.isTTY === true,
    });

    // Opened before any prompt: an unreachable database fails at once, and taken usernames are refused as typed.
    database = await openDatabase(env.database).catch((error: unknown) => {
      throw new SuperuserError(`cannot open the database, ${databaseWhere(env.database)}: ${describeError(error)}`);
    });
    const admins = database.admins;

    let input: NewSuperuser;
    if (given.username !== undefined && given.password !== undefined) {
      input = { username: given.username, password: given.password };
    } else {
      const terminal = (prompt = TerminalPrompt.open(process.stdin, process.stderr));
      input = await askForSuperuser(given, {
        ask: (question, options) => terminal.ask(question, options),
        warn: (line) => printError(line),
        isTaken: async (username) => (await admins.find(username)) !== null,
      });
    }

    const admin = await createSuperuser(admins, () => new Date(), input);
    process.stdout.write(`Superuser ${admin.username} created.\n`);
    return 0;
  } catch (error) {
    printError(`createsuperuser: ${describeFailure(error)}`);
    return 1;
  } finally {
    prompt?.close();
    await database?.close().catch(() => {});
  }
}

// Not console.error: on a terminal Bun paints it red with escape codes.
function printError(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** One line, no stack trace: the reader is an operator, not a developer. */
function describeFailure(error: unknown): string {
  if (error instanceof SuperuserError || error instanceof PromptAborted) return oneLine(error.message);
  if (error instanceof ConfigError) return error.problems.join("; ");
  return `unexpected error: ${oneLine(describeError(error))}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
