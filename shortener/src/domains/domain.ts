import type { RedirectStatus } from "../http/redirect-status.ts";

/** The default domain's id: it always exists, and its host is PUBLIC_BASE_URL's (or the request's). */
export const defaultDomainId = 0;

/** What a domain sets for its host; each null leaves the service's own behaviour. */
export interface DomainSettings {
  rootUrl: string | null;
  notFoundUrl: string | null;
  expiredUrl: string | null;
  redirectStatus: RedirectStatus | null;
}

/** A domain as the stores keep it: `host` is null for the default domain only. */
export interface Domain extends DomainSettings {
  id: number;
  host: string | null;
  createdAt: Date;
  /**
   * The workspaces granted it (docs/people.md), in id order: only they, and
   * the admins, make links on it. None: the instance's, where no
   * workspace makes links. The default domain is every one's.
   */
  workspaces: number[];
}

export type NewDomain = DomainSettings & { host: string; createdAt: Date };

/** What an update replaces: the host (never the default domain's), any setting, and the workspaces granted it. */
export type DomainChanges = Partial<DomainSettings> & { host?: string; workspaces?: number[] };
