import { describeError, throttledWarning, type Logger } from "@linkgeo/shared";
import { replicaOrigin, systemResolver, upstreamTarget, type Resolver, type UpstreamTarget } from "./resolve-replicas.ts";

export interface UpstreamPoolOptions {
  /** The service's name, for logs and error messages ("shortener"). */
  name: string;
  /** Configured base URLs (config.shortenerUrls); a name may stand for several replicas. */
  urls: string[];
  /** How often names are resolved again, to follow a scale-up or scale-down. */
  refreshMs: number;
  log: Logger;
  resolve?: Resolver;
  /** How long a replica that refused or dropped a connection is left out (`defaultEjectMs` unless said). */
  ejectMs?: number;
  clock?: () => Date;
  /** Told of each ejection (the metrics). */
  onEject?: (replica: string) => void;
}

/** How long a failed replica is left out unless configured (UPSTREAM_EJECT_MS), as nginx's fail_timeout. */
export const defaultEjectMs = 5_000;

/**
 * The replicas of one upstream service, balanced round-robin. Host names are
 * resolved at start and every `refreshMs`; a replica that failed is left out
 * for `ejectMs`, so one dead container costs one failed attempt, not one in N
 * of all requests.
 */
export class UpstreamPool {
  readonly name: string;
  private readonly targets: UpstreamTarget[];
  private readonly resolve: Resolver;
  private readonly refreshMs: number;
  private readonly ejectMs: number;
  private readonly clock: () => Date;
  private readonly log: Logger;
  private readonly onEject: ((replica: string) => void) | undefined;
  private readonly warnResolveFailed: ReturnType<typeof throttledWarning>;

  /** The last good addresses of each name; a name that never resolved has none. */
  private readonly resolved = new Map<string, string[]>();
  private current: string[] = [];
  private readonly ejectedUntil = new Map<string, number>();
  private cursor = 0;
  private timer: Timer | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(options: UpstreamPoolOptions) {
    this.name = options.name;
    this.targets = options.urls.map(upstreamTarget);
    this.resolve = options.resolve ?? systemResolver;
    this.refreshMs = options.refreshMs;
    this.ejectMs = options.ejectMs ?? defaultEjectMs;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log;
    this.onEject = options.onEject;
    this.warnResolveFailed = throttledWarning(options.log, "upstream name did not resolve, keeping its last replicas", {
      now: () => this.clock().getTime(),
    });
    this.current = this.build();
  }

  /** Resolves the names once, then keeps them fresh until `stop()`. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.refreshMs);
    // The server keeps the process alive; this timer alone must not.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Resolves every name again; a name that fails keeps its last good addresses. */
  refresh(): Promise<void> {
    // A slow DNS server must not pile up lookups, one per interval.
    this.inFlight ??= this.resolveAll().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** How many replicas are known now, ejected ones included. */
  get size(): number {
    return this.current.length;
  }

  /** Every replica known now, ejected ones included. */
  replicas(): string[] {
    return [...this.current];
  }

  /**
   * The next replica in turn, skipping ejected ones and those in `exclude`
   * (already tried for this request). When every candidate is ejected they
   * are used anyway: a guess beats a certain failure, and a replica that
   * came back is found at once. Undefined when no candidate is left.
   */
  next(exclude: ReadonlySet<string> = new Set()): string | undefined {
    const replicas = this.current;
    const now = this.clock().getTime();
    let fallback: number | undefined;
    for (let step = 0; step < replicas.length; step++) {
      const index = (this.cursor + step) % replicas.length;
      const replica = replicas[index]!;
      if (exclude.has(replica)) continue;
      if ((this.ejectedUntil.get(replica) ?? 0) <= now) return this.take(index);
      fallback ??= index;
    }
    return fallback === undefined ? undefined : this.take(fallback);
  }

  /** Leaves `replica` out of `next()` for the ejection time (from now). */
  eject(replica: string, reason?: string): void {
    const now = this.clock().getTime();
    const wasEjected = (this.ejectedUntil.get(replica) ?? 0) > now;
    this.ejectedUntil.set(replica, now + this.ejectMs);
    this.onEject?.(replica);
    // While every replica is down, each request fails on ejected ones again:
    // one line per replica per ejection, not one per request.
    if (!wasEjected) this.log.warn("upstream replica ejected", { upstream: this.name, replica, reason, for_ms: this.ejectMs });
  }

  private take(index: number): string {
    this.cursor = index + 1;
    return this.current[index]!;
  }

  private async resolveAll(): Promise<void> {
    const names = [...new Set(this.targets.flatMap((target) => (target.kind === "name" ? [target.hostname] : [])))];
    await Promise.all(
      names.map(async (hostname) => {
        try {
          const addresses = await this.resolve(hostname);
          if (addresses.length === 0) throw new Error("no addresses");
          // DNS servers rotate their answers; sorted, the list only changes when the set does.
          this.resolved.set(hostname, [...addresses].sort());
        } catch (error) {
          this.warnResolveFailed({ upstream: this.name, host: hostname, error: describeError(error), kept: this.resolved.get(hostname)?.length ?? 0 });
        }
      }),
    );
    const next = this.build();
    if (next.join(" ") !== this.current.join(" ")) {
      this.log.info("upstream replicas changed", { upstream: this.name, replicas: next });
    }
    this.current = next;
    this.forgetEjectionsOfGoneReplicas();
  }

  /** The replica list from the targets and the last good resolutions, in configured order. */
  private build(): string[] {
    const replicas = this.targets.flatMap((target) =>
      target.kind === "fixed" ? [target.origin] : (this.resolved.get(target.hostname) ?? []).map((address) => replicaOrigin(target, address)),
    );
    return [...new Set(replicas)];
  }

  private forgetEjectionsOfGoneReplicas(): void {
    for (const replica of this.ejectedUntil.keys()) {
      if (!this.current.includes(replica)) this.ejectedUntil.delete(replica);
    }
  }
}
