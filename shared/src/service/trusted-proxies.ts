import type { EnvReader } from "../core/config.ts";
import { defaultTrustedProxies } from "../net/client-address.ts";
import { parseIpRangeList, type IpRange } from "../net/ip-range.ts";

/**
 * TRUSTED_PROXIES, as every service reads it: the addresses and CIDR ranges
 * whose X-Forwarded-* headers are believed (`clientOf`), by default this
 * machine only. The shortener and the gateway read it with their pair's
 * variables; the geocoder reads it to know who made a job.
 */
export function readTrustedProxies(vars: EnvReader): IpRange[] {
  return vars.parsed("TRUSTED_PROXIES", parseIpRangeList) ?? parseIpRangeList(defaultTrustedProxies);
}
