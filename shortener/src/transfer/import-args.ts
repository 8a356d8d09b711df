import { parseArgs } from "node:util";
import { importFormats, type ImportFormat } from "./import-record.ts";
import { unknownDomainChoices, type UnknownDomainChoice } from "./import-domains.ts";

export const importUsage = `Usage: bun run import <file> [--format FORMAT] [--domains CHOICE] [--dry-run]

Imports the links of a file into the database named by DATABASE_URL, checking
each as the API checks a new link (BLOCK_PRIVATE_TARGETS, BLOCKED_DOMAINS and
PUBLIC_BASE_URL apply as in the service). Codes already taken are skipped, so
running the same file again changes nothing.

  --format FORMAT   ${importFormats.join(", ")}
                    (absent: told from the file's first line)
  --domains CHOICE  a row on a domain not added here: default (it goes on the
                    default domain; the default), create (the domain is
                    added), refuse (the row is a problem)
  --dry-run         check every row and which codes are taken; store nothing
  -h, --help        show this help`;

/** A mistake on the command line: printed with a pointer to --help, exit 1. */
export class ImportArgsError extends Error {
  override name = "ImportArgsError";
}

export interface ImportArgs {
  file?: string;
  format?: ImportFormat;
  /** What becomes of a row on a domain not added here (ImportDomains). */
  domains: UnknownDomainChoice;
  dryRun: boolean;
  help: boolean;
}

/** `bun run import`'s arguments; pure, so tests pass argv. */
export function parseImportArgs(argv: string[]): ImportArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new ImportArgsError(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { dryRun: false, domains: "default", help: true };
  if (positionals.length !== 1) throw new ImportArgsError("name one file to import (see --help)");
  const format = values.format;
  if (format !== undefined && !importFormats.includes(format as ImportFormat)) {
    throw new ImportArgsError(`--format must be one of ${importFormats.join(", ")}`);
  }
  const domains = values.domains;
  if (domains !== undefined && !(unknownDomainChoices as readonly string[]).includes(domains)) {
    throw new ImportArgsError(`--domains must be one of ${unknownDomainChoices.join(", ")}`);
  }
  return {
    file: positionals[0],
    format: format as ImportFormat | undefined,
    domains: (domains as UnknownDomainChoice | undefined) ?? "default",
    dryRun: values["dry-run"] ?? false,
    help: false,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { format: { type: "string" }, domains: { type: "string" }, "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
}
