/**
 * `bun run start` at the root: the shortener and the geocoder, then the
 * gateway, each with its embedded defaults (SQLite under its own data/,
 * in-process caches, no keys), in one terminal. Every line a service writes
 * is prefixed by its name; Ctrl-C stops the three cleanly, and a second
 * Ctrl-C (half a second or more after the first) kills what is left.
 *
 *   bun run start                              # then open http://localhost:8080
 *   bun run start shortener geocoder           # only these
 *   GATEWAY_PORT=9000 SHORTENER_PORT=9001 bun run start
 *
 * SHORTENER_PORT, GEOCODER_PORT and GATEWAY_PORT move the services (the
 * gateway is pointed at the other two). METRICS_PORT=N turns on each
 * service's metrics on a port of its own: N for the shortener, N+1 for the
 * geocoder, N+2 for the gateway (three services cannot share one port). The gateway and the shortener share
 * INTERNAL_SECRET, so redirects go in batches: the caller's, else a random
 * one for this run. Every other variable
 * (NOMINATIM_USER_AGENT, DATABASE_URL, …) reaches the services unchanged.
 */
import { join } from "node:path";
import { allocatorEnv, parseMetricsPort, parseSecret, readConfig, readConfigOrExit, type Env } from "@linkgeo/shared";
import { readGatewayConfig } from "../gateway/src/config.ts";
import { readGeocoderConfig } from "../geocoder/src/config.ts";
import { readShortenerConfig } from "../shortener/src/config.ts";

export const serviceNames = ["shortener", "geocoder", "gateway"] as const;
export type ServiceName = (typeof serviceNames)[number];

// The services' own defaults, so this script can never disagree with them.
export const defaultPorts: Record<ServiceName, number> = {
  shortener: readShortenerConfig({}).port,
  geocoder: readGeocoderConfig({}).port,
  gateway: readGatewayConfig({}).port,
};

export interface StartConfig {
  ports: Record<ServiceName, number>;
  /** METRICS_PORT set: each service's own metrics port, from it upwards in `serviceNames` order. */
  metricsPorts: Record<ServiceName, number> | undefined;
  services: ServiceName[];
  colour: boolean;
  /** The gateway's and the shortener's INTERNAL_SECRET. */
  internalSecret: string;
  /** The services' "listening" lines are shown: LOG_LEVEL does not hide info lines. */
  listeningShown: boolean;
}

export function readStartConfig(env: Env, args: string[]): StartConfig {
  return readConfig(env, (vars) => {
    const port = (name: ServiceName) =>
      // Not 0: the gateway must be told where the other two listen before they start.
      vars.integer(`${name.toUpperCase()}_PORT`, defaultPorts[name], { min: 1, max: 65535 });
    const ports = { shortener: port("shortener"), geocoder: port("geocoder"), gateway: port("gateway") };
    const unknown = args.filter((arg) => !(serviceNames as readonly string[]).includes(arg));
    for (const arg of unknown) vars.problem(`unknown service "${arg}": name some of ${serviceNames.join(", ")}`);
    const firstMetricsPort = vars.parsed("METRICS_PORT", (raw) => {
      const port = parseMetricsPort(raw);
      if (port + serviceNames.length - 1 > 65535)
        throw new Error(`must leave room for ${serviceNames.length} ports, one per service (at most ${65536 - serviceNames.length})`);
      return port;
    });
    return {
      ports,
      metricsPorts: firstMetricsPort === undefined ? undefined : metricsPortsFrom(firstMetricsPort),
      services: args.length === 0 ? [...serviceNames] : serviceNames.filter((name) => args.includes(name)),
      // https://no-color.org: present and not empty disables colour.
      colour: vars.raw("NO_COLOR") === undefined,
      internalSecret: vars.parsed("INTERNAL_SECRET", parseSecret) ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
      // Passed on to the services, which check it; here only: does it hide their "listening" lines (logged at info)?
      listeningShown: !["warn", "error"].includes(vars.raw("LOG_LEVEL") ?? ""),
    };
  });
}

/** One metrics port per service, counting up from `first` in `serviceNames` order. */
function metricsPortsFrom(first: number): Record<ServiceName, number> {
  return Object.fromEntries(serviceNames.map((name, index) => [name, first + index])) as Record<ServiceName, number>;
}

/**
 * How soon after a press (a stopping signal) another signal is the same press,
 * not a second. A signal sent to the whole process group (a terminal's
 * Ctrl-C, `kill -INT -<pgid>`) reaches this script twice when it runs as
 * `bun run start`: from the sender, and again from `bun run`, which passes
 * on the one it got itself, a moment later. Taken for a second press, it
 * killed the services still draining.
 */
export const sameSignalMs = 500;

/**
 * Tells each stopping signal apart: the `first` press, a press `again`
 * (which forces the stop), or the `same` press as the one before it (within
 * `sameSignalMs` of it).
 */
export function signalPresses(now: () => number = () => performance.now()): () => "first" | "same" | "again" {
  let lastPressAt: number | undefined;
  return () => {
    const at = now();
    if (lastPressAt !== undefined && at - lastPressAt < sameSignalMs) return "same";
    const kind = lastPressAt === undefined ? "first" : "again";
    lastPressAt = at;
    return kind;
  };
}

const root = join(import.meta.dir, "..");
const shutdownTimeoutMs = 10_000;
const colours: Record<ServiceName | "start", string> = { shortener: "36", geocoder: "35", gateway: "33", start: "32" };
const labelWidth = Math.max(...serviceNames.map((name) => name.length));

interface Running {
  name: ServiceName;
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves once every line the service wrote has been printed. */
  printed: Promise<void>;
  /** True once the service printed its own "listening" line (it holds its port); false if its output ended without one. */
  listening: Promise<boolean>;
}

if (import.meta.main) await main();

async function main(): Promise<void> {
  const config = readConfigOrExit("start", (env) => readStartConfig(env, process.argv.slice(2)));
  const say = lineWriter("start", process.stdout, config.colour);
  const running: Running[] = [];
  let stopping: Promise<boolean> | undefined;

  // One stop, whoever asks first (a signal or a service that died); later askers wait for it.
  const stopAll = () => (stopping ??= stopServices(running, say));

  const finish = async (code: number) => {
    await Promise.all(running.map((service) => service.printed));
    process.exit(code);
  };

  // The services live in their own process groups, so nothing else stops them
  // if this script dies of a bug: take them down with it.
  process.on("exit", () => {
    for (const service of running) if (service.proc.exitCode === null && service.proc.signalCode === null) service.proc.kill("SIGKILL");
  });

  const press = signalPresses();
  let forced = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      const kind = press();
      if (kind === "same") return;
      if (kind === "again") {
        forced = true;
        say(`${signal} again: killing what is left`);
        for (const service of running) service.proc.kill("SIGKILL");
        return;
      }
      say(`${signal}: stopping ${running.map((service) => service.name).join(", ")}`);
      void stopAll().then((clean) => finish(clean && !forced ? 0 : 1));
    });
  }

  const start = (name: ServiceName) => {
    const service = spawnService(name, serviceEnv(name, config), config.colour);
    running.push(service);
    void service.proc.exited.then((code) => {
      if (stopping) return;
      say(`${name} exited unexpectedly (${describeExit(code, service.proc.signalCode)}); stopping the others`);
      void stopAll().then(() => finish(1));
    });
    return service;
  };

  const taken = (await Promise.all(config.services.map(async (name) => ((await answersOn(config.ports[name])) ? [name] : [])))).flat();
  if (taken.length > 0) {
    for (const name of taken) say(`port ${config.ports[name]} (${name}) is already in use: another process answers there`);
    process.exit(1);
  }

  const upstreams = config.services.filter((name) => name !== "gateway");
  const metricsOf = (name: ServiceName) => (config.metricsPorts ? ` (metrics on :${config.metricsPorts[name]})` : "");
  say(`starting ${config.services.map((name) => `${name} on :${config.ports[name]}${metricsOf(name)}`).join(", ")}`);
  // The gateway comes last so its first requests find the other two answering.
  const first = upstreams.map(start);
  if (!(await waitUntilReady(first, config, say, () => stopping !== undefined))) return;
  const gateway = config.services.includes("gateway") ? [start("gateway")] : [];
  if (!(await waitUntilReady(gateway, config, say, () => stopping !== undefined))) return;

  say(
    config.services.includes("gateway")
      ? `ready: open http://localhost:${config.ports.gateway}`
      : `ready: ${upstreams.map((name) => `${name} http://localhost:${config.ports[name]}`).join(", ")}`,
  );
}

function serviceEnv(name: ServiceName, config: StartConfig): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...allocatorEnv(process.env), PORT: String(config.ports[name]) };
  if (config.metricsPorts) env.METRICS_PORT = String(config.metricsPorts[name]);
  if (name !== "geocoder") env.INTERNAL_SECRET = config.internalSecret;
  if (name === "gateway") {
    env.SHORTENER_URL = `http://127.0.0.1:${config.ports.shortener}`;
    env.GEOCODER_URL = `http://127.0.0.1:${config.ports.geocoder}`;
  }
  return env;
}

function spawnService(name: ServiceName, env: Record<string, string | undefined>, colour: boolean): Running {
  const proc = Bun.spawn([process.execPath, "run", "src/main.ts"], {
    cwd: join(root, name),
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // Its own process group: a terminal's Ctrl-C reaches the whole foreground
    // group, and a service that got that SIGINT and then our SIGTERM would take
    // the second signal as "exit now" (shared/src/service/graceful-shutdown.ts) and skip
    // draining. This way each service gets exactly one signal, from us.
    detached: true,
  });
  const { promise: listening, resolve: heard } = Promise.withResolvers<boolean>();
  const writeOut = lineWriter(name, process.stdout, colour);
  const printed = Promise.all([
    forwardLines(proc.stdout, (line) => {
      writeOut(line);
      if (isListeningLine(line)) heard(true);
    }).finally(() => heard(false)),
    forwardLines(proc.stderr, lineWriter(name, process.stderr, colour)),
  ]).then(() => {});
  return { name, proc, printed, listening };
}

/**
 * The line a service logs once it holds its port (shared/src/service/service-lifecycle.ts),
 * in either LOG_FORMAT: `12:00:00 INFO  shortener  listening  url=…` or JSON with `"msg":"listening"`.
 */
export function isListeningLine(line: string): boolean {
  if (/^\d\d:\d\d:\d\d INFO +\S+ {2}listening( {2}|$)/.test(line)) return true;
  if (!line.startsWith("{")) return false;
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    return entry.level === "info" && entry.msg === "listening";
  } catch {
    return false;
  }
}

/** Whether something already accepts connections on `port`: a service of ours could not listen there. */
async function answersOn(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The gateway first, so no request is passed to a service that is already
 * going, then the other two together. True when all exited 0 by themselves.
 */
async function stopServices(running: Running[], say: (line: string) => void): Promise<boolean> {
  const gatewayClean = await stopTogether(
    running.filter((service) => service.name === "gateway"),
    say,
  );
  const othersClean = await stopTogether(
    running.filter((service) => service.name !== "gateway"),
    say,
  );
  return gatewayClean && othersClean;
}

/** SIGTERM to each service still running; SIGKILL to any still there after the timeout. */
async function stopTogether(running: Running[], say: (line: string) => void): Promise<boolean> {
  const alive = running.filter((service) => service.proc.exitCode === null && service.proc.signalCode === null);
  for (const service of alive) service.proc.kill("SIGTERM");
  let clean = true;
  await Promise.all(
    alive.map(async (service) => {
      let timer: Timer | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), shutdownTimeoutMs);
      });
      const outcome = await Promise.race([service.proc.exited, timedOut]);
      clearTimeout(timer);
      if (outcome === "timeout") {
        say(`${service.name} did not stop within ${shutdownTimeoutMs / 1000} s: killing it`);
        service.proc.kill("SIGKILL");
        await service.proc.exited;
        clean = false;
      } else if (outcome !== 0) {
        say(`${service.name} stopped with ${describeExit(outcome, service.proc.signalCode)}`);
        clean = false;
      }
    }),
  );
  return clean;
}

/**
 * Waits for each service's own "listening" line, then polls its /ready until it answers 200;
 * false if stopping began (or a service died) first. Before that line, a 200 on the port would
 * come from another process: ours has not listened yet, and will then fail to (it asks for the
 * port alone). When LOG_LEVEL hides the line, the answer of a service still running counts.
 */
async function waitUntilReady(services: Running[], config: StartConfig, say: (line: string) => void, stopping: () => boolean): Promise<boolean> {
  const pending = new Set(services.map((service) => service.name));
  const slow = setTimeout(() => say(`still waiting for ${[...pending].join(", ")} to listen and answer /ready`), 30_000);
  const ready = await Promise.all(
    services.map(async (service) => {
      if (config.listeningShown && !(await service.listening)) return false;
      while (!stopping() && service.proc.exitCode === null && service.proc.signalCode === null) {
        const response = await fetch(`http://127.0.0.1:${config.ports[service.name]}/ready`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
        await response?.body?.cancel();
        if (response?.status === 200) {
          pending.delete(service.name);
          return true;
        }
        await Bun.sleep(100);
      }
      return false;
    }),
  );
  clearTimeout(slow);
  return ready.every(Boolean) && !stopping();
}

/** Writes whole lines behind a padded label, coloured only on a terminal. */
function lineWriter(name: ServiceName | "start", out: NodeJS.WriteStream, colour: boolean): (line: string) => void {
  const label = name.padEnd(labelWidth);
  const prefix = colour && out.isTTY ? `\x1b[${colours[name]}m${label}\x1b[0m | ` : `${label} | `;
  return (line) => void out.write(`${prefix}${line}\n`);
}

async function forwardLines(stream: ReadableStream<Uint8Array>, write: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let partial = "";
  for await (const chunk of stream) {
    partial += decoder.decode(chunk, { stream: true });
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) write(line.replace(/\r$/, ""));
  }
  partial += decoder.decode();
  if (partial !== "") write(partial);
}

function describeExit(code: number | null, signal: string | number | null): string {
  return signal !== null ? `signal ${signal}` : `exit code ${code}`;
}
