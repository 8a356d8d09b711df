import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { allocatorPurgeDelayMs, inAnyIpRange, parseIp, type Env } from "@linkgeo/shared";
import { configProblems } from "@linkgeo/testing";
import { readGeocoderConfig } from "../../geocoder/src/config.ts";
import { readShortenerConfig } from "../../shortener/src/config.ts";
import { readGatewayConfig } from "../src/config.ts";
import {
  interpolate,
  isDockerIgnored,
  parseCompose,
  parseCopy,
  parseDockerfile,
  parseDotenv,
  parseHealthcheck,
  readRepositoryFile,
  repositoryRoot,
  requiredVariables,
  substituteArgs,
  type ComposeService,
} from "./support/deployment-files.ts";

// There is no Docker engine where the tests run, so compose.yaml and the
// Dockerfile are read as files and held against the code they deploy: the
// variables each config.ts reads, the default ports, the health routes, the
// workspaces and the Bun version of the lockfile.

const composeText = readRepositoryFile("compose.yaml");
const compose = parseCompose(composeText);
const dockerignore = readRepositoryFile(".dockerignore");
const envExampleText = readRepositoryFile(".env.example");
const envExample = parseDotenv(envExampleText);

const readers = { shortener: readShortenerConfig, geocoder: readGeocoderConfig, gateway: readGatewayConfig } satisfies Record<string, (env: Env) => unknown>;
type AppName = keyof typeof readers;
const appNames = Object.keys(readers) as AppName[];
const defaultPort = (name: AppName) => readers[name]({}).port;

/** What an operator's .env is after `cp .env.example .env` and filling in the blanks the file asks for. */
const operatorEnv: Record<string, string> = Object.fromEntries(
  Object.entries(envExample).map(([name, value]) => [
    name,
    value === "" && requiredVariables(composeText).includes(name) ? "0123456789abcdef".repeat(4) : value,
  ]),
);

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

/** The environment a service's container gets, interpolated as Compose would with `.env`. */
function containerEnv(name: string, env: Record<string, string> = operatorEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(service(name).environment).map(([key, value]) => [key, interpolate(value, env).value]));
}

/** The variable names a service's config.ts reads, taken from its source (and from the shared readers of the common ones it calls). */
function variablesReadBy(name: AppName): { names: Set<string>; patterns: RegExp[] } {
  const own = readRepositoryFile(`${name}/src/config.ts`);
  const sharedReaders = [
    ["readServiceBasics(", "shared/src/service/service-config.ts"],
    ["readProxyPairVariables(", "shared/src/service/proxy-pair-variables.ts"],
    // TRUSTED_PROXIES: read with the pair's variables, or on its own (the geocoder).
    ["readProxyPairVariables(", "shared/src/service/trusted-proxies.ts"],
    ["readTrustedProxies(", "shared/src/service/trusted-proxies.ts"],
  ] as const;
  const source = sharedReaders.reduce((text, [call, file]) => (own.includes(call) ? text + readRepositoryFile(file) : text), own);
  // `vars.integer("PORT", …)`, `httpUrl("GEOAPIFY_URL")`, `rule(vars, "RATE_LIMIT_API", …)`: a call whose first argument is an upper-case name.
  const names = new Set([...source.matchAll(/\(\s*(?:vars\s*,\s*)?"([A-Z][A-Z0-9_]*)"/g)].map((match) => match[1]!));
  // Numbered families such as NOMINATIM_REVERSER_REPLICA_URL_<n>, matched with a regex literal.
  const patterns = [...source.matchAll(/\/\^([A-Z][A-Z0-9_]*_)\(\\d\+\)\$\//g)].map((match) => new RegExp(`^${match[1]}\\d+$`));
  return { names, patterns };
}

function isReadBy(name: AppName, variable: string): boolean {
  const { names, patterns } = variablesReadBy(name);
  return names.has(variable) || patterns.some((pattern) => pattern.test(variable));
}

/** The names a config reader actually looks up when given `env`. */
function namesLookedUp(name: AppName, env: Env): Set<string> {
  const seen = new Set<string>();
  const spy = new Proxy(env, {
    get(target, key) {
      if (typeof key === "string") seen.add(key);
      return Reflect.get(target, key);
    },
  });
  configProblems(readers[name], spy);
  return seen;
}

const dockerfileFor = (name: AppName) => {
  const build = service(name).build;
  if (!build) throw new Error(`${name} has no build section`);
  return { build, dockerfile: parseDockerfile(readRepositoryFile(join(build.context, build.dockerfile))) };
};

/** What `docker compose up` starts, without a --profile. */
const defaultServices = Object.values(compose.services).filter((entry) => entry.profiles.length === 0);

describe("compose.yaml: the services and their variables", () => {
  test("runs Postgres, Redis and the three services; Prometheus and Grafana only with the monitoring profile", () => {
    expect(defaultServices.map((entry) => entry.name).sort()).toEqual(["gateway", "geocoder", "postgres", "redis", "shortener"]);
    expect(
      Object.values(compose.services)
        .filter((entry) => entry.profiles.length > 0)
        .map((entry) => `${entry.name}:${entry.profiles.join(",")}`)
        .sort(),
    ).toEqual(["grafana:monitoring", "prometheus:monitoring"]);
  });

  test("the variable extraction from config.ts finds exactly what each reader looks up", () => {
    for (const name of appNames) {
      const { names, patterns } = variablesReadBy(name);
      expect(names.size).toBeGreaterThan(5);
      // Every name and one member of each numbered family set: every branch that reads a variable runs.
      const everything: Env = Object.fromEntries([...names, ...patterns.map((p) => `${p.source.slice(1, -4)}1`)].map((v) => [v, "x"]));
      const lookedUp = [...namesLookedUp(name, everything)].filter((variable) => !isReadBy(name, variable));
      expect({ service: name, readButNotFound: lookedUp }).toEqual({ service: name, readButNotFound: [] });
    }
  });

  describe.each(appNames)("%s", (name) => {
    test("sets only variables its config.ts reads (no typos, nothing for another service)", () => {
      const unknown = Object.keys(service(name).environment).filter((variable) => !isReadBy(name, variable));
      expect(unknown).toEqual([]);
    });

    test("starts in production with what compose gives it: every variable required there is set and valid", () => {
      const env = containerEnv(name);
      expect(env.NODE_ENV).toBe("production");
      expect(configProblems(readers[name], env)).toEqual([]);
    });

    test("sets every variable through which it would otherwise fall back to this machine (127.0.0.1, ./data)", () => {
      const env = containerEnv(name);
      const config = readers[name](env);
      // Without REDIS_URL each replica would keep its own cache and rate limits.
      expect(config.redis).toBeDefined();
      if (name === "shortener") expect(readShortenerConfig(env).database.engine).toBe("postgres");
      if (name === "geocoder") expect(readGeocoderConfig(env).cachePath).toStartWith("/");
      if (name === "gateway") expect(readGatewayConfig(env).shortenerUrls.every((url) => !url.includes("127.0.0.1"))).toBe(true);
    });
  });

  test("Postgres compresses its full-page images and spaces its checkpoints out (measured by bench:scale and bench:wal), its own entrypoint still first", () => {
    expect(service("postgres").command).toEqual(["postgres", "-c", "wal_compression=lz4", "-c", "max_wal_size=4GB", "-c", "checkpoint_timeout=15min"]);
  });

  test("the shortener's DATABASE_URL names the postgres service with its user, password and database", () => {
    const postgres = containerEnv("postgres");
    const url = new URL(containerEnv("shortener").DATABASE_URL!);
    expect({ host: url.hostname, port: url.port, user: url.username, password: url.password, database: url.pathname.slice(1) }).toEqual({
      host: "postgres",
      port: "5432",
      user: postgres.POSTGRES_USER!,
      password: postgres.POSTGRES_PASSWORD!,
      database: postgres.POSTGRES_DB!,
    });
  });

  test("the shortener and the geocoder believe the gateway's X-Forwarded-For from the compose network's private addresses, the gateway nobody's", () => {
    // Docker's default bridge networks are in 172.16.0.0/12; a user-defined pool may be in 10/8 or 192.168/16.
    const trusts = (config: { trustedProxies: Parameters<typeof inAnyIpRange>[1] }, address: string) => inAnyIpRange(parseIp(address)!, config.trustedProxies);
    for (const address of ["172.18.0.5", "10.0.3.7", "192.168.16.4"]) {
      expect({ address, shortener: trusts(readShortenerConfig(containerEnv("shortener")), address) }).toEqual({ address, shortener: true });
      // Who made a geocoding job: its quotas count the address the gateway forwards.
      expect({ address, geocoder: trusts(readGeocoderConfig(containerEnv("geocoder")), address) }).toEqual({ address, geocoder: true });
      expect({ address, gateway: trusts(readGatewayConfig(containerEnv("gateway")), address) }).toEqual({ address, gateway: false });
    }
  });

  test("each service has its own Redis database on the redis service", () => {
    const redis = appNames.map((name) => {
      const target = readers[name](containerEnv(name)).redis!;
      if (!("url" in target)) throw new Error(`${name}'s Redis is not one server`);
      return { name, ...target };
    });
    for (const { url } of redis) expect(new URL(url).host).toBe("redis:6379");
    const shortener = redis.find((entry) => entry.name === "shortener")!;
    const geocoder = redis.find((entry) => entry.name === "geocoder")!;
    expect(shortener.db).not.toBe(geocoder.db);
    expect(new Set(redis.map((entry) => entry.db)).size).toBe(redis.length);
  });

  test("each service records metrics on a port of its own, which compose does not publish", () => {
    const ports = {
      shortener: readShortenerConfig(containerEnv("shortener")).metricsPort,
      geocoder: readGeocoderConfig(containerEnv("geocoder")).metricsPort,
      gateway: readGatewayConfig(containerEnv("gateway")).metricsPort,
    };
    expect(ports).toEqual({ shortener: 9464, geocoder: 9464, gateway: 9464 });
    expect(JSON.stringify(service("gateway").ports ?? [])).not.toContain("9464");
  });

  test("the gateway and the shortener share one INTERNAL_SECRET: redirects go in batches", () => {
    const secrets = {
      gateway: readGatewayConfig(containerEnv("gateway")).internalSecret,
      shortener: readShortenerConfig(containerEnv("shortener")).internalSecret,
    };
    expect(secrets.gateway).toBeString();
    expect(secrets.shortener).toBe(secrets.gateway!);
  });

  test("the gateway reaches each upstream by its service name on that service's port", () => {
    const gateway = readGatewayConfig(containerEnv("gateway"));
    expect({ shortener: gateway.shortenerUrls, geocoder: gateway.geocoderUrls }).toEqual({
      shortener: [`http://shortener:${defaultPort("shortener")}`],
      geocoder: [`http://geocoder:${defaultPort("geocoder")}`],
    });
  });
});

describe("compose.yaml: the .env file", () => {
  const referenced = [...new Set(interpolate(composeText, {}).variables)].sort();

  test(".env.example lists every variable compose.yaml interpolates, and nothing else", () => {
    expect(Object.keys(envExample).sort()).toEqual(referenced);
  });

  test("without the three secrets `docker compose up` stops and says where to set them; .env.example commits no value for them", () => {
    expect([...new Set(interpolate(composeText, envExample).missing)].sort()).toEqual(["ELYSIA_SECRET_KEY", "INTERNAL_SECRET", "POSTGRES_PASSWORD"]);
    for (const match of composeText.matchAll(/\$\{[A-Z_]+:\?([^}]*)\}/g)) expect(match[1]).toContain(".env.example");
  });

  test("once they are filled in, nothing is missing", () => {
    expect(interpolate(composeText, operatorEnv).missing).toEqual([]);
  });

  test(".env stays out of git and out of the image", () => {
    expect(readRepositoryFile(".gitignore").split("\n")).toContain(".env");
    expect(isDockerIgnored(".env", dockerignore)).toBe(true);
  });
});

describe("compose.yaml: scaling, ports, health and volumes", () => {
  test("no service has a fixed container name (it would forbid --scale and clash between projects)", () => {
    for (const entry of Object.values(compose.services))
      expect({ service: entry.name, containerName: entry.containerName }).toEqual({ service: entry.name, containerName: undefined });
  });

  test("only the gateway publishes a port, its own on 8080; the scalable shortener and geocoder publish none; monitoring listens on this machine only", () => {
    const publishing = defaultServices.filter((entry) => entry.ports.length > 0).map((entry) => entry.name);
    expect(publishing).toEqual(["gateway"]);
    expect(service("gateway").ports).toEqual([`8080:${defaultPort("gateway")}`]);
    expect([...service("prometheus").ports, ...service("grafana").ports]).toEqual(["127.0.0.1:9090:9090", "127.0.0.1:3000:3000"]);
  });

  test("every dependency waits for a health check the dependency has", () => {
    const dependencies = defaultServices.flatMap((entry) =>
      Object.entries(entry.dependsOn).map(([target, { condition }]) => ({ from: entry.name, target, condition })),
    );
    expect(dependencies.map(({ from, target }) => `${from}→${target}`).sort()).toEqual([
      "gateway→geocoder",
      "gateway→redis",
      "gateway→shortener",
      "geocoder→redis",
      "shortener→postgres",
      "shortener→redis",
    ]);
    for (const { target, condition } of dependencies) {
      expect(condition).toBe("service_healthy");
      const dependency = service(target);
      const composeCheck = dependency.healthcheck && !dependency.healthcheck.disable && dependency.healthcheck.test.length > 0;
      const imageCheck =
        dependency.build !== undefined &&
        dockerfileFor(target as AppName)
          .dockerfile.stages.at(-1)!
          .instructions.some((i) => i.keyword === "HEALTHCHECK");
      expect({ target, healthChecked: composeCheck || imageCheck }).toEqual({ target, healthChecked: true });
    }
  });

  test("Postgres and Redis are checked with their own clients", () => {
    expect(service("postgres").healthcheck!.test.join(" ")).toContain("pg_isready");
    expect(service("redis").healthcheck!.test.join(" ")).toContain("redis-cli ping");
    expect(service("redis").command).toEqual(["redis-server", "--appendonly", "yes"]);
  });

  test("the images are pinned to a version", () => {
    for (const name of ["postgres", "redis", "prometheus", "grafana"]) expect(service(name).image).toMatch(/^[a-z]+(\/[a-z]+)?:v?\d+(\.\d+)*(-[a-z]+)?$/);
  });

  test("every named volume is declared, every declared one is used, and the stateful services keep theirs", () => {
    const mounts = Object.values(compose.services).flatMap((entry) =>
      entry.volumes.map((volume) => ({ service: entry.name, source: volume.split(":")[0]!, target: volume.split(":")[1]! })),
    );
    const named = mounts.filter((mount) => !/^[./~]/.test(mount.source));
    expect(named.map((mount) => mount.source).sort()).toEqual([...compose.volumes].sort());
    expect(named.map(({ service, target }) => `${service}:${target}`).sort()).toEqual([
      `geocoder:${containerEnv("geocoder").GEOCODER_CACHE_PATH!.replace(/\/[^/]+$/, "")}`,
      "grafana:/var/lib/grafana",
      "postgres:/var/lib/postgresql/data",
      "prometheus:/prometheus",
      "redis:/data",
    ]);
  });
});

describe("Dockerfile", () => {
  const lockedBun = /"bun-types": \["bun-types@(\d+\.\d+\.\d+)"/.exec(readRepositoryFile("bun.lock"))?.[1];

  test("every service is built from the root Dockerfile with its own folder and default port", () => {
    for (const name of appNames) {
      const { build } = dockerfileFor(name);
      expect({ context: build.context, dockerfile: build.dockerfile, args: build.args }).toEqual({
        context: ".",
        dockerfile: "Dockerfile",
        args: { SERVICE: name, PORT: String(defaultPort(name)) },
      });
      expect(statSync(join(repositoryRoot, build.context)).isDirectory()).toBe(true);
      expect(existsSync(join(repositoryRoot, name, "src/main.ts"))).toBe(true);
      expect(existsSync(join(repositoryRoot, name, "package.json"))).toBe(true);
    }
  });

  test("uses the official Bun image of the lockfile's Bun (same major.minor)", () => {
    const { dockerfile } = dockerfileFor("shortener");
    expect(lockedBun).toBeDefined();
    for (const stage of dockerfile.stages) {
      const image = substituteArgs(stage.from, dockerfile.globalArgs);
      const tag = /^oven\/bun:(\d+)\.(\d+)\.\d+(?:-[a-z]+)?$/.exec(image);
      expect({ image, majorMinor: tag && `${tag[1]}.${tag[2]}` }).toEqual({ image, majorMinor: lockedBun!.split(".").slice(0, 2).join(".") });
    }
  });

  describe.each(appNames)("built for the %s", (name) => {
    const { build, dockerfile } = dockerfileFor(name);
    const args = { ...dockerfile.globalArgs, ...build.args };
    const final = dockerfile.stages.at(-1)!;
    const all = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword).map((i) => substituteArgs(i.args, args));

    test("copies only files that exist and that .dockerignore lets through", () => {
      for (const stage of dockerfile.stages) {
        for (const instruction of stage.instructions.filter((i) => i.keyword === "COPY")) {
          const copy = parseCopy(substituteArgs(instruction.args, args));
          if (copy.from !== undefined) continue;
          for (const source of copy.sources) {
            expect({ source, exists: existsSync(join(repositoryRoot, build.context, source)), ignored: isDockerIgnored(source, dockerignore) }).toEqual({
              source,
              exists: true,
              ignored: false,
            });
          }
        }
      }
    });

    test("installs from the lockfile with every workspace's manifest (a frozen install needs them all)", () => {
      const install = dockerfile.stages.find((stage) => stage.instructions.some((i) => i.keyword === "RUN" && i.args.includes("bun install")))!;
      expect(install.instructions.find((i) => i.keyword === "RUN" && i.args.includes("bun install"))!.args).toBe("bun install --frozen-lockfile --production");
      const copied = install.instructions.filter((i) => i.keyword === "COPY").flatMap((i) => parseCopy(i.args).sources);
      const workspaces = (JSON.parse(readRepositoryFile("package.json")) as { workspaces: string[] }).workspaces;
      expect(copied.sort()).toEqual(["bun.lock", "bunfig.toml", "package.json", ...workspaces.map((w) => `${w}/package.json`)].sort());
    });

    test("ships all of the service's and shared's source and bundled data", () => {
      const folders = [name, "shared"].flatMap((folder) => [join(folder, "src"), join(folder, "assets")]);
      const files = folders.filter((folder) => existsSync(join(repositoryRoot, folder))).flatMap((folder) => filesUnder(join(repositoryRoot, folder)));
      expect(files.filter((file) => isDockerIgnored(file, dockerignore))).toEqual([]);
      if (name === "geocoder") expect(files).toContain("geocoder/assets/regions.bin.gz");
      expect(isDockerIgnored(`${name}/node_modules`, dockerignore)).toBe(true);
      expect(isDockerIgnored(`${name}/data/local.db`, dockerignore)).toBe(true);
    });

    test("ships no test code: the test kit's source and every test folder stay out", () => {
      const kit = filesUnder(join(repositoryRoot, "shared/testing/src"));
      expect(kit.length).toBeGreaterThan(0);
      expect(kit.filter((file) => !isDockerIgnored(file, dockerignore))).toEqual([]);
      expect(isDockerIgnored(`${name}/test/support/any.ts`, dockerignore)).toBe(true);
      expect(isDockerIgnored("shared/testing/package.json", dockerignore)).toBe(false);
    });

    test("runs src/main.ts in the service's folder as the non-root bun user, on its port", () => {
      expect(all("USER")).toEqual(["bun"]);
      expect(all("WORKDIR").at(-1)).toBe(`/app/${name}`);
      expect(all("CMD")).toEqual(['["bun", "run", "src/main.ts"]']);
      expect(all("EXPOSE")).toEqual([String(defaultPort(name))]);
      expect(all("ENV")).toContain(`PORT=${defaultPort(name)}`);
      expect(all("ENV")).toContain("NODE_ENV=production");
      // What every other start of a service uses too (shared/src/core/allocator-settings.ts).
      expect(all("ENV")).toContain(`MIMALLOC_PURGE_DELAY=${allocatorPurgeDelayMs}`);
    });

    test("its health check asks a route the service has, on the port it listens on", () => {
      const checks = all("HEALTHCHECK").map(parseHealthcheck);
      expect(checks).toHaveLength(1);
      const paths = [...checks[0]!.command.join(" ").matchAll(/'(\/[a-z]+)'/g)].map((match) => match[1]!);
      expect(paths).toHaveLength(1);
      expect(healthRoutes()).toContain(paths[0]!);
      expect(checks[0]!.command.join(" ")).toContain("process.env.PORT");
      // A compose-level check, if one is ever added, must ask a real route too.
      const composeCheck = service(name).healthcheck?.test.join(" ");
      if (composeCheck) expect(healthRoutes().some((route) => composeCheck.includes(`:${defaultPort(name)}${route}`))).toBe(true);
    });
  });

  test("the health check command works: exit 0 when /health answers 200, 1 when it does not or nothing listens", async () => {
    const { dockerfile } = dockerfileFor("gateway");
    const final = dockerfile.stages.at(-1)!;
    const { command } = parseHealthcheck(final.instructions.find((i) => i.keyword === "HEALTHCHECK")!.args);
    let healthy = true;
    using server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => new Response(null, { status: new URL(request.url).pathname === "/health" && healthy ? 200 : 500 }),
    });
    const run = async (port: number) => {
      const [bun, ...rest] = command;
      expect(bun).toBe("bun");
      const child = Bun.spawn([process.execPath, ...rest], { env: { PATH: process.env.PATH, PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
      return child.exited;
    };
    expect(await run(server.port!)).toBe(0);
    healthy = false;
    expect(await run(server.port!)).toBe(1);
    server.stop(true);
    expect(await run(server.port!)).toBe(1);
  });
});

/** The paths shared/src/service/health.ts serves. */
function healthRoutes(): string[] {
  return [...readRepositoryFile("shared/src/service/health.ts").matchAll(/\.get\(\s*"(\/[a-z]+)"/g)].map((match) => match[1]!);
}

/** Every file under `dir`, as a path relative to the repository root. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(repositoryRoot, join(entry.parentPath, entry.name)));
}
