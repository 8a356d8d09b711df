import { parseSecret, type EnvReader } from "../core/config.ts";
import type { IpRange } from "../net/ip-range.ts";
import { defaultImportMaxBytes } from "../protocol/import-upload.ts";
import { readTrustedProxies } from "./trusted-proxies.ts";

/**
 * The variables the gateway and the shortener both read, each by one rule
 * here, so the two services never disagree on them.
 */
export interface ProxyPairVariables {
  /** TRUSTED_PROXIES: addresses and CIDR ranges whose X-Forwarded-* headers are believed (default loopback). */
  trustedProxies: IpRange[];
  /**
   * INTERNAL_SECRET, at least 32 characters, the same on both: the gateway sends redirects to the shortener in
   * batches (POST /internal/redirects). Absent: each redirect is proxied on its own and the route does not exist.
   */
  internalSecret: string | undefined;
  /** IMPORT_MAX_BYTES (1 MiB to 64 GiB, default 1 GiB): the largest file POST /admin/import streams through and reads. */
  importMaxBytes: number;
}

export function readProxyPairVariables(vars: EnvReader): ProxyPairVariables {
  return {
    trustedProxies: readTrustedProxies(vars),
    internalSecret: vars.parsed("INTERNAL_SECRET", parseSecret),
    importMaxBytes: vars.integer("IMPORT_MAX_BYTES", defaultImportMaxBytes, { min: 1024 * 1024, max: 64 * 1024 * 1024 * 1024 }),
  };
}
