import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createLogger, ServiceLifecycle, startServiceMetrics } from "../src/index.ts";

/** A logger that keeps its JSON lines, and an exit that records its code instead of ending the test run. */
function recorder() {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(JSON.parse(line)) });
  const exits: number[] = [];
  const exit = (code: number): never => {
    exits.push(code);
    throw new Error(`exit ${code}`);
  };
  return { lines, log, exits, exit };
}

describe("a port that cannot be had", () => {
  test("stops the service with exit code 1 and one line naming the API listener and its address", () => {
    using taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    const { lines, log, exits, exit } = recorder();
    const lifecycle = new ServiceLifecycle(log, { registry: undefined, stop: () => {} }, exit);
    expect(() => lifecycle.serve(new Elysia(), { port: taken.port!, hostname: "127.0.0.1", afterStop: [] })).toThrow("exit 1");
    expect(exits).toEqual([1]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "cannot listen",
        listener: "api",
        address: `127.0.0.1:${taken.port}`,
        error: expect.stringContaining("in use"),
      }),
    ]);
  });

  test("stops the service when the port is another server's that shares ports (SO_REUSEPORT), as another of our services would", () => {
    // Elysia listens with reusePort by default: a second stack started on the same port would bind it too and take half the requests.
    using taken = Bun.serve({ hostname: "127.0.0.1", port: 0, reusePort: true, fetch: () => new Response("someone else") });
    const { lines, log, exits, exit } = recorder();
    const lifecycle = new ServiceLifecycle(log, { registry: undefined, stop: () => {} }, exit);
    expect(() => lifecycle.serve(new Elysia(), { port: taken.port!, hostname: "127.0.0.1", afterStop: [] })).toThrow("exit 1");
    expect(exits).toEqual([1]);
    expect(lines).toEqual([expect.objectContaining({ level: "error", msg: "cannot listen", listener: "api", address: `127.0.0.1:${taken.port}` })]);
  });

  test("stops the service with exit code 1 and one line naming the metrics listener and its address", () => {
    using taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    const { lines, log, exits, exit } = recorder();
    expect(() => startServiceMetrics({ service: "test", port: taken.port!, hostname: "127.0.0.1", log, exit })).toThrow("exit 1");
    expect(exits).toEqual([1]);
    expect(lines).toEqual([expect.objectContaining({ level: "error", msg: "cannot listen", listener: "metrics", address: `127.0.0.1:${taken.port}` })]);
  });
});
