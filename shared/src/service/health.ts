import { Elysia, t } from "elysia";
import { withDeadline } from "../core/deadline.ts";

/** A dependency check for `/ready`: resolves when the dependency answers. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthOptions {
  /** Checks that must pass for the service to take traffic (the database). */
  required: Record<string, ReadinessCheck>;
  /** Checks whose failure degrades but does not stop the service (the cache). */
  optional?: Record<string, ReadinessCheck>;
  /** False once shutdown has begun, so load balancers stop sending traffic. */
  accepting: () => boolean;
  timeoutMs?: number;
}

const ReadinessBody = t.Object({
  status: t.Union([t.Literal("ready"), t.Literal("degraded"), t.Literal("unavailable")]),
  checks: t.Record(t.String(), t.String()),
});

/** `/health`: the process is alive. `/ready`: its dependencies answer. */
export function health(options: HealthOptions) {
  const timeoutMs = options.timeoutMs ?? 1000;

  const run = async (check: ReadinessCheck) => {
    try {
      await withDeadline(timeoutMs, check, () => new Error("timed out"));
      return "ok";
    } catch {
      return "failing";
    }
  };

  return new Elysia({ name: "health" })
    .get("/health", () => ({ status: "ok" as const }), {
      detail: { summary: "Liveness: the process answers", tags: ["operations"] },
      response: t.Object({ status: t.Literal("ok") }),
    })
    .get(
      "/ready",
      async ({ set }) => {
        const names = [...Object.keys(options.required), ...Object.keys(options.optional ?? {})];
        const checks = { ...options.required, ...options.optional };
        const results = await Promise.all(names.map((name) => run(checks[name]!)));
        const byName: Record<string, string> = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
        const requiredOk = Object.keys(options.required).every((name) => byName[name] === "ok");
        if (!options.accepting()) byName.shutdown = "in progress";
        const status = !requiredOk || !options.accepting() ? "unavailable" : results.every((r) => r === "ok") ? "ready" : "degraded";
        if (status === "unavailable") set.status = 503;
        return { status, checks: byName } as const;
      },
      {
        detail: { summary: "Readiness: the dependencies answer (503 when a required one does not)", tags: ["operations"] },
        response: { 200: ReadinessBody, 503: ReadinessBody },
      },
    );
}
