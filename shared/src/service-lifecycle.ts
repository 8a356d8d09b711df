import { onShutdownSignal, type ShutdownStep } from "./graceful-shutdown.ts";
import type { LogFields, Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics/metrics-listener.ts";

/** What the lifecycle needs of an app: Elysia's listen and server, nothing more. */
export interface ListeningApp {
  listen(options: { port: number; hostname: string; maxRequestBodySize: number }): unknown;
  server: { port?: number; stop(): Promise<unknown> } | null;
}

/**
 * A service process from listening to a graceful stop, the same for the
 * three main.ts: listen with the services' options (bodies up to 1 MiB; the
 * JSON parser and the batch route keep their own, smaller limits), log
 * where, and on SIGTERM or SIGINT stop taking requests (/ready then says so),
 * close the server and the metrics listener, then run the service's own
 * steps in order.
 */
export class ServiceLifecycle {
  private open = true;

  constructor(
    private readonly log: Logger,
    private readonly metrics: ServiceMetrics,
  ) {}

  /** For the app's readiness: false once a shutdown has begun. */
  readonly accepting = (): boolean => this.open;

  serve(app: ListeningApp, options: { port: number; hostname: string; listening?: LogFields; afterStop: ShutdownStep[] }): void {
    app.listen({ port: options.port, hostname: options.hostname, maxRequestBodySize: 1024 * 1024 });
    this.log.info("listening", { url: `http://${options.hostname}:${app.server?.port}`, ...options.listening });
    onShutdownSignal(this.log, [
      {
        name: "stop taking requests",
        run: async () => {
          this.open = false;
          await app.server?.stop();
          this.metrics.stop();
        },
      },
      ...options.afterStop,
    ]);
  }
}
