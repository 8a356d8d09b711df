import { describeError, silentLogger, type Logger } from "@linkgeo/shared";
import { mergeSpecs, type ServiceSpec } from "./merge-specs.ts";
import { asOpenApiDocument, type OpenApiDocument } from "./openapi-document.ts";

export type ServiceName = "shortener" | "geocoder";
export const serviceNames: readonly ServiceName[] = ["shortener", "geocoder"];

export interface MergedSpecOptions {
  /** The gateway's own routes (see gatewayOwnSpec). */
  ownSpec: () => OpenApiDocument;
  /**
   * A service's /docs/json body. `signal` aborts when the timeout passes; a
   * fetcher that ignores it is still cut off, its answer discarded.
   */
  fetchServiceSpec: (service: ServiceName, signal: AbortSignal) => Promise<unknown>;
  clock: () => Date;
  /** How long a merged document with every service in it is served before asking again. Default 30 s. */
  cacheMs?: number;
  /** How long one service may take to answer. Default 2 s. */
  timeoutMs?: number;
  log?: Logger;
}

/**
 * A merge with a service missing or stale is kept at most this long, so a
 * service that starts after the gateway (docker compose) shows up within
 * seconds rather than a whole cacheMs later.
 */
const degradedCacheMs = 5_000;

/**
 * The merged document, rebuilt at most once per cacheMs. Each service's last
 * good spec is kept: when it stops answering, the page keeps showing it
 * (marked stale) instead of losing its operations; a service that never
 * answered is marked unavailable.
 */
export class MergedSpecSource {
  private readonly cacheMs: number;
  private readonly timeoutMs: number;
  private readonly log: Logger;
  private cached: { document: OpenApiDocument; expiresAt: number } | undefined;
  /** One refresh at a time: concurrent requests share it instead of each asking the services. */
  private refreshing: Promise<OpenApiDocument> | undefined;
  private readonly lastGood = new Map<ServiceName, { spec: OpenApiDocument; at: Date }>();

  constructor(private readonly options: MergedSpecOptions) {
    this.cacheMs = options.cacheMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.log = options.log ?? silentLogger;
  }

  async current(): Promise<OpenApiDocument> {
    if (this.cached && this.options.clock().getTime() < this.cached.expiresAt) return this.cached.document;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<OpenApiDocument> {
    const answers = await Promise.all(serviceNames.map(async (name) => [name, await this.fetchOne(name)] as const));
    const now = this.options.clock();
    const services: ServiceSpec[] = answers.map(([name, spec]) => {
      if (spec) {
        this.lastGood.set(name, { spec, at: now });
        return { name, spec };
      }
      const kept = this.lastGood.get(name);
      return kept ? { name, spec: kept.spec, asOf: kept.at } : { name, spec: undefined };
    });
    const document = mergeSpecs(this.options.ownSpec(), services);
    const complete = services.every((service) => service.spec && !service.asOf);
    this.cached = { document, expiresAt: now.getTime() + (complete ? this.cacheMs : Math.min(this.cacheMs, degradedCacheMs)) };
    return document;
  }

  private async fetchOne(service: ServiceName): Promise<OpenApiDocument | undefined> {
    const controller = new AbortController();
    let timer: Timer | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      const spec = asOpenApiDocument(await Promise.race([this.options.fetchServiceSpec(service, controller.signal), timedOut]));
      if (!spec) this.log.warn("service API description is not an OpenAPI 3 document", { service });
      return spec;
    } catch (error) {
      this.log.warn("service API description unavailable", { service, error: describeError(error) });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
