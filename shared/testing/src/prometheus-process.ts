import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installDebianPackageIfMissing } from "./debian-package.ts";
import { freePort } from "./free-port.ts";
import { waitFor } from "./wait-for.ts";

/** Debian's Prometheus server. */
const prometheusPath = "/usr/bin/prometheus";

/** For the hook that starts it: on a fresh machine that includes installing it with apt-get. */
export const prometheusSetupTimeoutMs = 600_000;

export interface PrometheusProcess extends AsyncDisposable {
  url: string;
  /** An instant query's single value (`sum(...)`, say); undefined while it has no sample. */
  value(query: string): Promise<number | undefined>;
  /** Waits until every scrape target is up. */
  targetsUp(timeoutMs?: number): Promise<void>;
  output(): string;
}

/**
 * A real Prometheus (Debian's package, installed when missing) in a
 * temporary folder, on a free port of 127.0.0.1, scraping `targets`
 * (`host:port` of /metrics listeners, by job) every second.
 */
export async function startPrometheus(targets: Record<string, string[]>): Promise<PrometheusProcess> {
  installDebianPackageIfMissing(prometheusPath, "prometheus");
  const dir = mkdtempSync(join(tmpdir(), "prometheus-"));
  const port = await freePort();
  const jobs = Object.entries(targets)
    .map(([job, addresses]) => `  - job_name: ${job}\n    static_configs:\n      - targets: [${addresses.map((a) => JSON.stringify(a)).join(", ")}]`)
    .join("\n");
  writeFileSync(join(dir, "prometheus.yml"), `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n${jobs}\n`);
  const proc = Bun.spawn(
    [prometheusPath, `--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdout: "pipe", stderr: "pipe" },
  );
  let printed = "";
  void (async () => {
    for await (const chunk of proc.stderr) printed = (printed + new TextDecoder().decode(chunk)).slice(-20_000);
  })();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    proc.kill("SIGKILL");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      "Prometheus to be ready",
      async () => {
        if (proc.exitCode !== null) throw new Error(`prometheus exited ${proc.exitCode}:\n${printed}`);
        return (await fetch(`${url}/-/ready`).catch(() => null))?.status === 200;
      },
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`Prometheus ${path}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    async value(query) {
      const data = await api<{ result: { value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent(query)}`);
      const first = data.result[0];
      return first === undefined ? undefined : Number(first.value[1]);
    },
    async targetsUp(timeoutMs = 30_000) {
      await waitFor(
        "every scrape target up",
        async () => {
          const data = await api<{ activeTargets: { health: string }[] }>("/api/v1/targets");
          return data.activeTargets.length > 0 && data.activeTargets.every((target) => target.health === "up");
        },
        timeoutMs,
      );
    },
    output: () => printed,
    [Symbol.asyncDispose]: stop,
  };
}
