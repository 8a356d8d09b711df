import { HttpError, InvalidRequest } from "@linkgeo/shared";
import { defaultDomainId } from "../domains/domain.ts";
import type { DomainSnapshot } from "../domains/domain-directory.ts";
import { parseDomainHost, requestHostName } from "../domains/domain-host.ts";

/** What becomes of a row whose `domain` is no domain here: it goes on the default domain, the domain is added, or the row is a problem. */
export const unknownDomainChoices = ["default", "create", "refuse"] as const;
export type UnknownDomainChoice = (typeof unknownDomainChoices)[number];

export function parseUnknownDomainChoice(raw: string | undefined, name: string): UnknownDomainChoice {
  if (raw === undefined) return "default";
  if ((unknownDomainChoices as readonly string[]).includes(raw)) return raw as UnknownDomainChoice;
  throw InvalidRequest.because(`${name} must be ${unknownDomainChoices.join(", ")}`);
}

export interface ImportDomainsDeps {
  /** The domains as read when the import began. */
  domains: DomainSnapshot;
  /** The default domain's host (PUBLIC_BASE_URL's, or the request's): a row naming it is on the default domain. */
  defaultHost: string | undefined;
  choice: UnknownDomainChoice;
  dryRun: boolean;
  /** Adds a domain (`create`, not in a dry run); its id. */
  create: (host: string) => Promise<number>;
}

/**
 * The domain of each imported row (docs/migrating.md, "Domains"): none
 * named, or the default domain's host, is the default domain; an added
 * domain's host is that domain; any other is what the person chose for
 * them (`unknownDomains` lists them, for the summary and the dry run that
 * lets them choose).
 */
export class ImportDomains {
  private readonly others = new Map<string, number | string>();

  constructor(private readonly deps: ImportDomainsDeps) {}

  /** The id of the row's domain, or why the row has none. */
  async idOf(named: string | undefined): Promise<number | { problem: string }> {
    if (named === undefined || named === "") return defaultDomainId;
    const host = requestHostName(named);
    if (host === undefined) return { problem: `domain ${quoted(named)} is not a host name` };
    if (host === this.deps.defaultHost) return defaultDomainId;
    const added = this.deps.domains.withHost(host);
    if (added) return added.id;
    let outcome = this.others.get(host);
    if (outcome === undefined) {
      outcome = await this.decide(host);
      this.others.set(host, outcome);
    }
    return typeof outcome === "number" ? outcome : { problem: outcome };
  }

  /** The hosts rows named that were no domain here when the import began, in the order met. */
  get unknownDomains(): string[] {
    return [...this.others.keys()];
  }

  private async decide(host: string): Promise<number | string> {
    if (this.deps.choice === "default") return defaultDomainId;
    if (this.deps.choice === "refuse") return `domain ${quoted(host)} is not a domain here: add it, or import with domains=create or domains=default`;
    const parsed = parseDomainHost(host);
    if ("problem" in parsed) return `domain ${quoted(host)} cannot be added: host ${parsed.problem}`;
    // A dry run adds nothing: each new host gets an id of its own no domain has, so its rows are checked apart.
    if (this.deps.dryRun) return -(this.others.size + 1);
    try {
      return await this.deps.create(parsed.host);
    } catch (error) {
      if (error instanceof HttpError) return `domain ${quoted(host)} cannot be added: ${error.message}`;
      throw error;
    }
  }
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}
