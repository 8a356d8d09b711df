import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { allocatorPurgeDelayMs, createLogger } from "@linkgeo/shared";
import { configProblems, freePort, freePortRun } from "@linkgeo/testing";
import { readGatewayConfig } from "../../../gateway/src/config.ts";
import { readGeocoderConfig } from "../../../geocoder/src/config.ts";
import { readShortenerConfig } from "../../../shortener/src/config.ts";
import { defaultPorts, isListeningLine, readStartConfig, sameSignalMs, type ServiceName, signalPresses } from "../../start.ts";
import { StartScript, type StartScriptOptions } from "../support/start-script.ts";

const root = join(import.meta.dir, "../../..");

// The gateway's main.ts may not be written yet; until it is, the run is checked
// on the other two (the script takes service names) and the gateway joins by itself once it exists.
const gatewayBuilt = existsSync(join(root, "gateway/src/main.ts"));
const services: ServiceName[] = gatewayBuilt ? ["shortener", "geocoder", "gateway"] : ["shortener", "geocoder"];

/**
 * The script at the repository's root; each service gets a throwaway database, so a test never touches the data/ of a
 * developer's `bun run start`. No test here geocodes: the geocoder starts without LOCAL, whose data takes a second or
 * more of a core to load at each start (the README's blocks run the default start, LOCAL included: docs-run.test.ts).
 */
const startScript = (args: string[], env: Record<string, string>, options: StartScriptOptions = {}) =>
  new StartScript(
    root,
    args,
    { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: "sqlite:///:memory:", GEOCODER_CACHE_PATH: ":memory:", GEOCODER_LOCAL: "false", ...env },
    options,
  );

async function portsFor(): Promise<Record<ServiceName, number>> {
  return { shortener: await freePort(), geocoder: await freePort(), gateway: await freePort() };
}

function portEnv(ports: Record<ServiceName, number>): Record<string, string> {
  return { SHORTENER_PORT: String(ports.shortener), GEOCODER_PORT: String(ports.geocoder), GATEWAY_PORT: String(ports.gateway) };
}

async function answers(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
  await response?.body?.cancel();
  return response !== null;
}

/**
 * A request to `port` whose body never comes: a service's graceful stop
 * waits for it. Resolves once the route reads the body (its "100
 * Continue"); ending it (or disposing of it) lets the stop go on.
 */
async function heldRequest(port: number): Promise<{ end(): void } & Disposable> {
  const { promise: bodyAwaited, resolve: awaitingBody } = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: { data: (_, bytes) => void (new TextDecoder().decode(bytes).includes("100 Continue") && awaitingBody()) },
  });
  socket.write("POST /shorten/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n");
  await bodyAwaited;
  const end = () => void socket.end();
  return { end, [Symbol.dispose]: end };
}

/** Another process on `port` that says it is ready, as another linkgeo stack would; it shares the port, ours would not. */
function readyImpostor(port: number): Bun.Server<undefined> {
  return Bun.serve({ port, reusePort: true, fetch: () => Response.json({ status: "ready", checks: {} }) });
}

let script: StartScript | undefined;
afterEach(async () => {
  // A failed test must not leave services holding ports: the script stops them on SIGTERM.
  await script?.stop();
  script = undefined;
});

describe("bun run start", () => {
  test(`starts ${services.join(", ")}, prefixes their lines, each with its own metrics port, and stops them all on SIGINT`, async () => {
    const ports = await portsFor();
    const firstMetricsPort = await freePortRun(services.length);
    script = startScript(services, { ...portEnv(ports), METRICS_PORT: String(firstMetricsPort) });

    const ready = await script.waitForLine("the ready line", (line) => line.startsWith("start     | ready: "));
    expect(ready).toBe(
      gatewayBuilt
        ? `start     | ready: open http://localhost:${ports.gateway}`
        : `start     | ready: shortener http://localhost:${ports.shortener}, geocoder http://localhost:${ports.geocoder}`,
    );
    for (const [index, name] of services.entries()) {
      expect(await answers(ports[name])).toBe(true);
      const metrics = await fetch(`http://127.0.0.1:${firstMetricsPort + index}/metrics`);
      expect(await metrics.text()).toContain(`service="${name}"`);
      // Each service's own log line, behind its padded name (no colour: the output is not a terminal).
      expect(script.lines.some((line) => line.startsWith(`${name.padEnd(9)} | `) && line.includes(`${name}  listening`))).toBe(true);
    }
    // Each service starts with the allocator settings every start of one uses (allocatorEnv), unset in the script's environment.
    const { pid: scriptPid } = script.proc;
    const tasks = readdirSync(`/proc/${scriptPid}/task`);
    const children = tasks.flatMap((task) => readFileSync(`/proc/${scriptPid}/task/${task}/children`, "utf8").split(/\s+/).filter(Boolean));
    expect(children).toHaveLength(services.length);
    for (const pid of children) expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain(`MIMALLOC_PURGE_DELAY=${allocatorPurgeDelayMs}`);
    // The gateway and the shortener were given one secret: redirects go in batches.
    if (gatewayBuilt) expect(script.lines.some((line) => line.startsWith("gateway   | ") && line.includes("redirects=batched"))).toBe(true);
    expect(script.lines.every((line) => !line.includes("\x1b["))).toBe(true);

    script.proc.kill("SIGINT");
    expect(await script.exited()).toBe(0);
    for (const name of services) {
      // "stopped" is the last line of a service's own graceful shutdown: it drained, it was not killed.
      expect(script.lines).toContainEqual(expect.stringMatching(new RegExp(`^${name.padEnd(9)} \\| .*${name}  stopped$`)));
      expect(await answers(ports[name])).toBe(false);
    }
  });

  test("one SIGINT to the whole process group of `bun run start` (a terminal's Ctrl-C) stops the services cleanly, none killed", async () => {
    const ports = await portsFor();
    script = startScript(services, portEnv(ports), { asPackageScript: true });
    await script.waitForLine("the ready line", (line) => line.startsWith("start     | ready: "));

    // To bun and to the script alike; bun passes its own on to the script too.
    process.kill(-script.proc.pid, "SIGINT");
    expect(await script.exited()).toBe(0);
    expect(script.lines.filter((line) => line.startsWith("start     | "))).toEqual([
      expect.stringMatching(/^start {5}\| starting /),
      expect.stringMatching(/^start {5}\| ready: /),
      `start     | SIGINT: stopping ${services.join(", ")}`,
    ]);
    for (const name of services) {
      expect(script.lines).toContainEqual(expect.stringMatching(new RegExp(`^${name.padEnd(9)} \\| .*${name}  stopped$`)));
      expect(await answers(ports[name])).toBe(false);
    }
  });

  test("a SIGINT that comes again within a moment of the first is the same press (bun run's copy): the stop stays clean", async () => {
    const ports = await portsFor();
    script = startScript(["shortener"], portEnv(ports));
    await script.waitForLine("the ready line", (line) => line.startsWith("start     | ready: "));
    // The shortener is still draining when the copy comes.
    using request = await heldRequest(ports.shortener);

    const firstAt = performance.now();
    script.proc.kill("SIGINT");
    await script.waitForLine("the shortener draining", (line) => line.startsWith("shortener | ") && line.endsWith("shutting down  signal=SIGTERM"));
    script.proc.kill("SIGINT");
    expect(performance.now() - firstAt).toBeLessThan(sameSignalMs);
    request.end();
    expect(await script.exited()).toBe(0);
    expect(script.lines).not.toContain("start     | SIGINT again: killing what is left");
    expect(script.lines).toContainEqual(expect.stringMatching(/^shortener \| .*shortener {2}stopped$/));
  });

  test("a second SIGINT to the group after that forces the stop: the service still draining is killed", async () => {
    const ports = await portsFor();
    script = startScript(["shortener"], portEnv(ports), { asPackageScript: true });
    await script.waitForLine("the ready line", (line) => line.startsWith("start     | ready: "));
    // The shortener is still draining when the second press comes.
    using _request = await heldRequest(ports.shortener);

    process.kill(-script.proc.pid, "SIGINT");
    // Timed from when the script says it took the first press (a loaded machine may take it late), not from when it was sent.
    await script.waitForLine("the first press taken", (line) => line === "start     | SIGINT: stopping shortener");
    const firstTakenAt = performance.now();
    await script.waitForLine("the shortener draining", (line) => line.startsWith("shortener | ") && line.endsWith("shutting down  signal=SIGTERM"));
    // A second press is one that comes later than the same press twice can.
    await Bun.sleep(sameSignalMs + 100 - (performance.now() - firstTakenAt));
    process.kill(-script.proc.pid, "SIGINT");
    expect(await script.exited()).toBe(1);
    expect(script.lines.filter((line) => line.startsWith("start     | ")).slice(2)).toEqual([
      "start     | SIGINT: stopping shortener",
      "start     | SIGINT again: killing what is left",
      "start     | shortener stopped with signal SIGKILL",
    ]);
  });

  test("when one service dies, stops the others and exits non-zero", async () => {
    const ports = await portsFor();
    // A bad variable only the geocoder reads: it exits at once, the shortener starts fine.
    script = startScript(["shortener", "geocoder"], { ...portEnv(ports), GEOCODER_DEFAULT_ORDER: "NOWHERE" });

    await script.waitForLine("the geocoder's death", (line) => line.startsWith("start     | geocoder exited unexpectedly (exit code 1)"));
    expect(await script.exited()).toBe(1);
    expect(script.lines).toContainEqual(expect.stringMatching(/^geocoder {2}\| geocoder: GEOCODER_DEFAULT_ORDER has unknown entries NOWHERE/));
    expect(await answers(ports.shortener)).toBe(false);
  });

  test("a port another process answers on stops it before anything starts, naming the port, and never says ready", async () => {
    const ports = await portsFor();
    using _impostor = readyImpostor(ports.shortener);
    script = startScript(["shortener"], portEnv(ports));

    expect(await script.exited()).toBe(1);
    expect(script.lines).toEqual([`start     | port ${ports.shortener} (shortener) is already in use: another process answers there`]);
  });

  test("a port taken once the check is past: another process's /ready is not taken for the service's, which fails to listen", async () => {
    const ports = await portsFor();
    script = startScript(services, portEnv(ports));
    // The gateway starts only once the others are ready: long after its port was checked.
    await script.waitForLine("the start", (line) => line.startsWith("start     | starting "));
    using _impostor = readyImpostor(ports.gateway);

    expect(await script.exited()).toBe(1);
    expect(script.lines.filter((line) => line.startsWith("start     | ready: "))).toEqual([]);
    expect(script.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^gateway {3}\\| .*cannot listen  listener=api address=0\\.0\\.0\\.0:${ports.gateway} `)),
    );
    expect(script.lines).toContain("start     | gateway exited unexpectedly (exit code 1); stopping the others");
  });

  test("a bad port or an unknown service name stops it before anything starts, naming the problem", async () => {
    script = startScript(["shortener", "nope"], { SHORTENER_PORT: "0" });
    expect(await script.exited()).toBe(1);
    expect(script.lines).toEqual([
      'start: SHORTENER_PORT must be a whole number from 1 to 65535 (got "0")',
      'start: unknown service "nope": name some of shortener, geocoder, gateway',
    ]);
  });
});

describe("signalPresses", () => {
  test("a signal within sameSignalMs of a press is that press again; one after it is a press again", () => {
    let now = 1_000;
    const press = signalPresses(() => now);
    const seen = [press()];
    now += 5;
    seen.push(press());
    now += sameSignalMs - 10;
    seen.push(press());
    now += 5;
    seen.push(press(), press());
    now += sameSignalMs;
    seen.push(press());
    expect(seen).toEqual(["first", "same", "same", "again", "same", "again"]);
  });
});

describe("isListeningLine", () => {
  test.each(["pretty", "json"] as const)("knows a service's own listening line in %s logs, and no other line", (format) => {
    const lines: string[] = [];
    const log = createLogger({ service: "shortener", level: "info", format, write: (line) => lines.push(line) });
    log.info("listening", { url: "http://0.0.0.0:3001", cache: "memory" });
    log.info("metrics", { url: "http://0.0.0.0:9464/metrics" });
    log.error("cannot listen", { listener: "api", address: "0.0.0.0:3001" });
    log.info("GET /listening", { status: 404 });
    expect(lines.map(isListeningLine)).toEqual([true, false, false, false]);
  });
});

describe("start configuration", () => {
  test("defaults to the services' own ports and all three services", () => {
    expect(readStartConfig({}, [])).toEqual({
      ports: { shortener: 3001, geocoder: 3002, gateway: 8080 },
      metricsPorts: undefined,
      services: ["shortener", "geocoder", "gateway"],
      colour: true,
      internalSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      listeningShown: true,
    });
    // A new one each run, unless the caller names one.
    expect(readStartConfig({}, []).internalSecret).not.toBe(readStartConfig({}, []).internalSecret);
    expect(readStartConfig({ INTERNAL_SECRET: "s".repeat(32) }, []).internalSecret).toBe("s".repeat(32));
    expect(defaultPorts).toEqual({ shortener: readShortenerConfig({}).port, geocoder: readGeocoderConfig({}).port, gateway: readGatewayConfig({}).port });
  });

  test("METRICS_PORT gives each service a metrics port of its own, counting up from it", () => {
    expect(readStartConfig({ METRICS_PORT: "9464" }, []).metricsPorts).toEqual({ shortener: 9464, geocoder: 9465, gateway: 9466 });
    expect(configProblems((env) => readStartConfig(env, []), { METRICS_PORT: "65534" })).toEqual([
      "METRICS_PORT must leave room for 3 ports, one per service (at most 65533)",
    ]);
    expect(configProblems((env) => readStartConfig(env, []), { METRICS_PORT: "0" })).toEqual(["METRICS_PORT must be a whole number from 1 to 65535"]);
  });

  test("a LOG_LEVEL above info hides the services' listening lines", () => {
    expect(readStartConfig({ LOG_LEVEL: "warn" }, []).listeningShown).toBe(false);
    expect(readStartConfig({ LOG_LEVEL: "error" }, []).listeningShown).toBe(false);
    expect(readStartConfig({ LOG_LEVEL: "debug" }, []).listeningShown).toBe(true);
  });

  test("keeps the start order whatever order the names are given in, and honours NO_COLOR", () => {
    expect(readStartConfig({ NO_COLOR: "1" }, ["gateway", "shortener"])).toMatchObject({ services: ["shortener", "gateway"], colour: false });
    expect(configProblems((env) => readStartConfig(env, []), { GATEWAY_PORT: "http" })).toEqual([
      'GATEWAY_PORT must be a whole number from 1 to 65535 (got "http")',
    ]);
  });
});
