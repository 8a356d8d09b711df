/** A domain as `/admin/domains` shows it: the host its links are served on, and what it does besides them. */
export interface DomainView {
  /** 0 is the default domain, which always exists. */
  id: number;
  /** The default domain's is PUBLIC_BASE_URL's host, or the request's when that is unset. */
  host: string;
  default: boolean;
  /** Where `/` on this host sends a visitor; null: the web app's home on the default domain, a 404 on another. */
  root_url: string | null;
  /** Where an unknown code on this host sends a visitor; null: the not-found page. */
  not_found_url: string | null;
  /** Where an expired or used-up link of this host sends a visitor when it names none; null: 410. */
  expired_url: string | null;
  /** The redirect status of this host's links that name none; null: the service's REDIRECT_STATUS. */
  redirect_status: 301 | 302 | 307 | 308 | null;
  created_at: string;
  /** The workspaces granted it (docs/people.md): only they, and the admins, make links on it; none: the instance's. */
  workspaces: number[];
}

/**
 * What a domain's host named by a client may look like before anyone asks
 * the shortener about it (a link page's `?domain=`, a saved link's): DNS
 * letters, digits, dots and hyphens. The shortener reads the host itself;
 * this only keeps other text out of a call and out of storage.
 */
export const domainHostShape = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * The header of the shortener's answer to `GET /` saying what `/` is on the
 * host asked: `redirect` (the domain's root URL, in Location), `home` (the
 * default domain's root: the web app's home page) or `none` (a 404). The
 * gateway believes only an answer that carries it: a shortener of the
 * release before answers `/` with a plain 404, which says nothing.
 */
export const rootAnswerHeader = "x-linkgeo-root";
export type RootAnswer = "redirect" | "home" | "none";
