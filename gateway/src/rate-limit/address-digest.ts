import { BoundedMap } from "@linkgeo/shared";

/**
 * A client address as a bucket key holds it: HMAC-SHA256 of the address
 * under `secret`, cut to 128 bits. Redis (and any dump of it) then holds no
 * address, and without the secret no one can get one back by hashing all
 * 2^32 IPv4 addresses; replicas given the same secret still agree on a
 * client's bucket.
 *
 * `secret` undefined: a random one of this process's own, which is enough
 * for in-process buckets; with Redis, replicas then keep a client's buckets
 * apart (each replica grants its own budget).
 */
export function addressDigest(secret: string | undefined, remembered = 4_096): (address: string) => string {
  const key = secret ?? crypto.getRandomValues(new Uint8Array(32));
  // A redirect asks for its client's digest three times (the miss budget's check and answer, the redirect budget), and
  // a client sends many: the last few thousand, in this process's memory only, cost a lookup instead of an HMAC each.
  const known = new BoundedMap<string, string>(remembered);
  return (address) => {
    const cached = known.get(address);
    if (cached !== undefined) return cached;
    const digest = new Bun.CryptoHasher("sha256", key).update(address).digest("base64url").slice(0, 22);
    known.set(address, digest);
    return digest;
  };
}
