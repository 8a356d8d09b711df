import { defaultDomainId } from "../domains/domain.ts";
import { couldBeCode } from "./short-code.ts";

/**
 * How storage, the caches and the visit counter know a link: its code on
 * the default domain (so every link made before domains keeps its key, its
 * count and its visits, with no row rewritten), and `<domain id>~<code>` on
 * an added domain. `~` is in no code, and a domain's id is never used again,
 * so a key names one link for good. `Link.code` is this key; what a client
 * reads is `keyParts(key).code` and the domain's host.
 */
export type LinkKey = string;

const separator = "~";

export function linkKey(domainId: number, code: string): LinkKey {
  return domainId === defaultDomainId ? code : `${domainId}${separator}${code}`;
}

/** The domain and the code of a key (the default domain when it has no prefix). */
export function keyParts(key: LinkKey): { domainId: number; code: string } {
  const at = key.indexOf(separator);
  return at === -1 ? { domainId: defaultDomainId, code: key } : { domainId: Number(key.slice(0, at)), code: key.slice(at + 1) };
}

/** The code a client reads of a key. */
export function codeOfKey(key: LinkKey): string {
  return keyParts(key).code;
}

/** The first and the last key a domain's links can have, for a range over the key's index; undefined for the default domain, which has no prefix. */
export function domainKeyRange(domainId: number): { from: string; to: string } | undefined {
  if (domainId === defaultDomainId) return undefined;
  // "~" is U+007E; U+007F sorts after it, and no code holds either.
  return { from: `${domainId}${separator}`, to: `${domainId}\u007f` };
}

/** How a link on a domain this replica does not know is named: `<id>.invalid`, a name no host has (RFC 2606), so no call reaches another link by it. */
export function unknownDomainHost(domainId: number): string {
  return `${domainId}.invalid`;
}

/** Whether a key could name a link at all: a code's shape, on the default domain or after a domain's id. */
export function couldBeKey(key: LinkKey): boolean {
  const at = key.indexOf(separator);
  if (at === -1) return couldBeCode(key);
  return /^[1-9]\d{0,8}$/.test(key.slice(0, at)) && couldBeCode(key.slice(at + 1));
}
