import { onShutdownSignal, type ShutdownStep } from "./graceful-shutdown.ts";
import { listenOrExit, type Exit } from "../http/listen-or-exit.ts";
import type { LogFields, Logger } from "../core/logger.ts";
import type { ServiceMetrics } from "../metrics/metrics-listener.ts";

/** What the lifecycle needs of an app: Elysia's listen and server, nothing more. */
export interface ListeningApp {
  listen(options: { port: number; hostname: string; maxRequestBodySize: number; reusePort: boolean }): unknown;
  server: { port?: number; stop(): Promise<unknown> } | null;
}

/**
 * Bun's own limit on a request body: a backstop far above the services' own
 * (64 KiB for JSON, 4 MiB for a bulk create, 1 MiB for the redirect batch).
 * Bun answers a body over it with 413 before any hook runs, so such a
 * refusal reached neither the access log nor the metrics; every reader of
 * a body checks its own limit on Content-Length before reading
 * (readBodyLimited), so below this one the services refuse, log and count
 * it themselves.
 */
export const bodyBackstopBytes = 64 * 1024 * 1024;

/**
 * A service process from listening to a graceful stop, the same for the
 * three main.ts: listen (with Bun's body limit as a backstop only), log
 * where, and on SIGTERM or SIGINT stop taking requests (/ready then says so),
 * close the server and the metrics listener, then run the service's own
 * steps in order.
 */
export class ServiceLifecycle {
  private open = true;

  constructor(
    private readonly log: Logger,
    private readonly metrics: ServiceMetrics,
    private readonly exit: Exit = process.exit,
  ) {}

  /** For the app's readiness: false once a shutdown has begun. */
  readonly accepting = (): boolean => this.open;

  /** `maxBodyBytes`: the largest body a route of the service reads (an import's), when more than the backstop. */
  serve(app: ListeningApp, options: { port: number; hostname: string; listening?: LogFields; afterStop: ShutdownStep[]; maxBodyBytes?: number }): void {
    const maxRequestBodySize = Math.max(bodyBackstopBytes, options.maxBodyBytes ?? 0);
    listenOrExit(
      this.log,
      { what: "api", hostname: options.hostname, port: options.port },
      // Elysia asks for SO_REUSEPORT unless told not to: another of our processes on the same port would then
      // share it silently, each answering half the requests from its own database, instead of being refused.
      () => app.listen({ port: options.port, hostname: options.hostname, maxRequestBodySize, reusePort: false }),
      this.exit,
    );
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
