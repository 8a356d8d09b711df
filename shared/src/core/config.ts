/**
 * Reads environment variables once, at start. Every bad variable is reported
 * (not just the first), each on one line naming it; the caller prints the
 * lines and stops the process. Nothing else in a service reads `process.env`.
 */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join("\n")}`);
    this.name = "ConfigError";
  }
}

export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** The raw value, with blank treated as absent. */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === "" ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, range: { min: number; max: number }): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < range.min || value > range.max) {
      this.problems.push(`${name} must be a whole number from ${range.min} to ${range.max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  oneOf<const T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (!(choices as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${choices.join(", ")} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  /**
   * A value with its own parser; the parser throws an Error whose message
   * completes the sentence "NAME …". Values are not echoed: they may hold
   * passwords or keys.
   */
  parsed<T>(name: string, parse: (raw: string) => T): T | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    try {
      return parse(raw);
    } catch (error) {
      this.problems.push(`${name} ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Records a problem found by a rule that spans several variables. */
  problem(line: string): void {
    this.problems.push(line);
  }
}

/** Builds a typed configuration from `env`; throws ConfigError listing every bad variable. */
export function readConfig<T>(env: Env, build: (vars: EnvReader) => T): T {
  const vars = new EnvReader(env);
  const config = build(vars);
  if (vars.problems.length > 0) throw new ConfigError(vars.problems);
  return config;
}

/**
 * For a service's main.ts: the configuration, or each problem printed on its
 * own line (`shortener: PORT must be …`) and the process stopped.
 */
export function readConfigOrExit<T>(service: string, read: (env: Env) => T, env: Env = process.env): T {
  try {
    return read(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`${service}: ${problem}`);
    process.exit(1);
  }
}

/**
 * A secret of ours (ELYSIA_SECRET_KEY, INTERNAL_SECRET, GEOCODER_JOBS_SECRET):
 * long enough not to be guessed; throws with a readable reason.
 */
export function parseSecret(raw: string): string {
  if (raw.length < 32) throw new Error("must be at least 32 characters");
  return raw;
}

/** Parses a URL whose scheme must be one of `schemes`; throws with a readable reason. */
export function parseUrl(raw: string, schemes: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`must be a URL (${schemes.map((s) => `${s}://…`).join(" or ")})`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    throw new Error(`must use ${schemes.join(" or ")}, not ${url.protocol.slice(0, -1)}`);
  }
  return url;
}

/**
 * Where a service's Redis is: one server (`redis://host:port/N`), a primary
 * found through Redis Sentinel, which follows it across a failover
 * (`redis+sentinel://[:password@]host:port,host:port/<primary name>[/N]`),
 * or a Redis Cluster (REDIS_CLUSTER_NODES, read by service-config.ts).
 */
export type RedisTarget = { url: string; db: number } | RedisSentinelTarget | RedisClusterTarget;

/** The variable a service's Redis comes from and the address it gives, password redacted: what its logs show. */
export interface RedisSource {
  variable: "REDIS_URL" | "REDIS_CLUSTER_NODES";
  address: string;
}

export interface HostPort {
  host: string;
  port: number;
}

export interface RedisSentinelTarget {
  sentinels: HostPort[];
  /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  name: string;
  db: number;
  /** The primary's password, when it has one (the sentinels themselves are asked without). */
  password?: string;
}

export interface RedisClusterTarget {
  /** Some of the cluster's nodes: the client asks them for the rest and for which node holds which slots. */
  clusterNodes: HostPort[];
  /** The nodes' password, when they have one. */
  password?: string;
}

const sentinelUrl = /^redis\+sentinel:\/\/(?:(?:[^:@/]*):([^@/]*)@)?([^/@]+)\/([^/]+)(?:\/(\d{1,2}))?\/?$/i;

export function parseRedisUrl(raw: string): RedisTarget {
  if (/^redis\+sentinel:/i.test(raw)) return parseSentinelUrl(raw);
  const url = parseUrl(raw, ["redis", "rediss"]);
  if (!url.hostname) throw new Error("must name a host (redis://host:port/N)");
  const path = url.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path)) throw new Error("must end with a database number (redis://host:port/N)");
  return { url: raw, db: path === "" ? 0 : Number(path) };
}

function parseSentinelUrl(raw: string): RedisSentinelTarget {
  const match = sentinelUrl.exec(raw);
  if (!match) throw new Error("must be redis+sentinel://host:port,host:port/<primary name>[/N]");
  const [, password, hosts, name, db] = match;
  return {
    sentinels: parseHostPorts(hosts!, "a sentinel"),
    name: decodeURIComponent(name!),
    db: db === undefined ? 0 : Number(db),
    ...(password ? { password: decodeURIComponent(password) } : {}),
  };
}

/** `host:port,host:port` (REDIS_CLUSTER_NODES) → the cluster nodes a client starts from. */
export function parseRedisClusterNodes(raw: string): HostPort[] {
  return parseHostPorts(raw, "a node");
}

/**
 * A comma list of `host:port` (a name, an IPv4 address or a bracketed IPv6
 * address); `what` names an entry in the error, by its place: its text is not
 * echoed, since a URL with a password put there by mistake would be.
 */
function parseHostPorts(list: string, what: string): HostPort[] {
  return list.split(",").map((entry, i) => {
    const hostPort = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})$/.exec(entry.trim());
    const port = Number(hostPort?.[2]);
    if (!hostPort || port < 1 || port > 65_535) throw new Error(`names ${what} that is not host:port (entry ${i + 1})`);
    return { host: hostPort[1]!.replace(/^\[|\]$/g, ""), port };
  });
}
