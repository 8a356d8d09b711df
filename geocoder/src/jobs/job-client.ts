import { formatIp, isIpv4, parseIp } from "@linkgeo/shared";

/**
 * Who made a job, as its row keeps it: HMAC-SHA256 of the client's address
 * under `secret` (GEOCODER_JOBS_SECRET), cut to 128 bits, so the store holds
 * no address and none can be got back by hashing every IPv4 address without
 * the secret; replicas given the same secret agree on a client. An IPv6
 * address counts by its /64, which one subscriber usually holds whole (a
 * client rotating through its own addresses is still one client). `secret`
 * undefined: a random one of this process's own (each replica, and each
 * start, then sees a client apart).
 *
 * The address itself is the caller's: the socket's peer, or what a trusted
 * proxy (the gateway) says it forwarded for (`clientOf`, TRUSTED_PROXIES).
 */
export function jobClientDigest(secret: string | undefined): (address: string) => string {
  const key = secret ?? crypto.getRandomValues(new Uint8Array(32));
  return (address) => new Bun.CryptoHasher("sha256", key).update(quotaAddress(address)).digest("base64url").slice(0, 22);
}

/** The address a quota counts: an IPv6 one's /64 (`2001:db8:1:2::/64`), any other as it is. */
function quotaAddress(address: string): string {
  const parsed = parseIp(address);
  if (!parsed || isIpv4(parsed)) return address;
  const network = new Uint8Array(16);
  network.set(parsed.subarray(0, 8));
  return `${formatIp(network)}/64`;
}
