/**
 * Readers for compose.yaml, the Dockerfile, .dockerignore and .env.example,
 * just enough of each format for gateway/test/compose.test.ts to check them
 * against the code without a Docker engine. Each reader throws on a shape it
 * does not understand, so a new construct in those files fails the test
 * loudly instead of being skipped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const repositoryRoot = join(import.meta.dir, "..", "..", "..");

export function readRepositoryFile(path: string): string {
  return readFileSync(join(repositoryRoot, path), "utf8");
}

// --- compose.yaml -------------------------------------------------------------

export interface ComposeBuild {
  context: string;
  dockerfile: string;
  args: Record<string, string>;
}

export interface ComposeHealthcheck {
  test: string[];
  disable: boolean;
}

export interface ComposeService {
  name: string;
  image: string | undefined;
  build: ComposeBuild | undefined;
  environment: Record<string, string>;
  ports: string[];
  volumes: string[];
  containerName: string | undefined;
  healthcheck: ComposeHealthcheck | undefined;
  dependsOn: Record<string, { condition: string }>;
  command: string[] | undefined;
  /** Empty: always started; else only with one of these `--profile`s. */
  profiles: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: string[];
}

type YamlMap = Record<string, unknown>;

function isMap(value: unknown): value is YamlMap {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mapAt(value: unknown, where: string): YamlMap {
  if (value === undefined || value === null) return {};
  if (!isMap(value)) throw new Error(`${where} must be a map`);
  return value;
}

function stringAt(value: unknown, where: string): string {
  if (typeof value !== "string") throw new Error(`${where} must be a string (quote numbers: "3001")`);
  return value;
}

function optionalString(value: unknown, where: string): string | undefined {
  return value === undefined ? undefined : stringAt(value, where);
}

function stringListAt(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where} must be a list`);
  return value.map((item, i) => stringAt(item, `${where}[${i}]`));
}

function stringMapAt(value: unknown, where: string): Record<string, string> {
  // The list form ("- KEY=value") is valid Compose, but the map form is the one these checks read.
  return Object.fromEntries(Object.entries(mapAt(value, where)).map(([key, item]) => [key, stringAt(item, `${where}.${key}`)]));
}

/** compose.yaml as the checks need it; the list forms of environment and depends_on are refused. */
export function parseCompose(text: string): ComposeFile {
  const root = mapAt(Bun.YAML.parse(text), "compose.yaml");
  const services = Object.fromEntries(
    Object.entries(mapAt(root.services, "services")).map(([name, raw]) => {
      const where = `services.${name}`;
      const service = mapAt(raw, where);
      return [name, parseService(name, service, where)];
    }),
  );
  return { services, volumes: Object.keys(mapAt(root.volumes, "volumes")) };
}

function parseService(name: string, service: YamlMap, where: string): ComposeService {
  const build = service.build === undefined ? undefined : mapAt(service.build, `${where}.build`);
  const health = service.healthcheck === undefined ? undefined : mapAt(service.healthcheck, `${where}.healthcheck`);
  const dependsOn = mapAt(service.depends_on, `${where}.depends_on`);
  return {
    name,
    image: optionalString(service.image, `${where}.image`),
    build: build && {
      context: stringAt(build.context, `${where}.build.context`),
      dockerfile: optionalString(build.dockerfile, `${where}.build.dockerfile`) ?? "Dockerfile",
      args: stringMapAt(build.args, `${where}.build.args`),
    },
    environment: stringMapAt(service.environment, `${where}.environment`),
    ports: stringListAt(service.ports, `${where}.ports`),
    volumes: stringListAt(service.volumes, `${where}.volumes`),
    containerName: optionalString(service.container_name, `${where}.container_name`),
    healthcheck: health && {
      test: health.test === undefined ? [] : stringListAt(health.test, `${where}.healthcheck.test`),
      disable: health.disable === true,
    },
    dependsOn: Object.fromEntries(
      Object.entries(dependsOn).map(([target, options]) => [
        target,
        { condition: stringAt(mapAt(options, `${where}.depends_on.${target}`).condition, `${where}.depends_on.${target}.condition`) },
      ]),
    ),
    command: service.command === undefined ? undefined : stringListAt(service.command, `${where}.command`),
    profiles: stringListAt(service.profiles, `${where}.profiles`),
  };
}

// --- Compose interpolation (https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/) ---

export interface Interpolated {
  value: string;
  /** Every variable named, in order. */
  variables: string[];
  /** Variables whose absence stops `docker compose` (${VAR:?…} or ${VAR?…}) and are absent or blank here. */
  missing: string[];
}

const reference = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Fills `${…}` from `env` as Compose does with a .env file; `$$` is a literal `$`. */
export function interpolate(text: string, env: Record<string, string>): Interpolated {
  const variables: string[] = [];
  const missing: string[] = [];
  const value = text.replace(
    reference,
    (whole, braced: string | undefined, operator: string | undefined, operand: string | undefined, bare: string | undefined) => {
      if (whole === "$$") return "$";
      const name = (braced ?? bare)!;
      variables.push(name);
      const current = env[name];
      const set = current !== undefined;
      const nonEmpty = set && current !== "";
      switch (operator) {
        case undefined:
          return current ?? "";
        case ":-":
          return nonEmpty ? current! : operand!;
        case "-":
          return set ? current! : operand!;
        case ":?":
        case "?":
          if (operator === ":?" ? !nonEmpty : !set) missing.push(name);
          return current ?? "";
        case ":+":
          return nonEmpty ? operand! : "";
        case "+":
          return set ? operand! : "";
        default:
          throw new Error(`unsupported interpolation ${whole}`);
      }
    },
  );
  return { value, variables, missing };
}

/** Every `?`-required variable of `text` (whether set or not). */
export function requiredVariables(text: string): string[] {
  return [...text.matchAll(reference)].filter((match) => match[2]?.endsWith("?")).map((match) => match[1]!);
}

// --- .env files ----------------------------------------------------------------

/** KEY=value lines; # comments and blank lines skipped; surrounding quotes removed. */
export function parseDotenv(text: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`.env line ${i + 1} is not KEY=value: ${line}`);
    entries.push([match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, "$2")]);
  }
  return Object.fromEntries(entries);
}

// --- Dockerfile ----------------------------------------------------------------

export interface Instruction {
  keyword: string;
  args: string;
}

export interface DockerStage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  globalArgs: Record<string, string | undefined>;
  stages: DockerStage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const lines = text
    .replace(/\\\r?\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const globalArgs: Record<string, string | undefined> = {};
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const match = /^([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`Dockerfile: cannot read "${line}"`);
    const keyword = match[1]!.toUpperCase();
    const args = match[2]!.trim();
    if (keyword === "FROM") {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`Dockerfile: cannot read FROM ${args}`);
      stages.push({ from: from[1]!, name: from[2], instructions: [] });
    } else if (stages.length === 0) {
      if (keyword !== "ARG") throw new Error(`Dockerfile: only ARG may come before FROM, not ${keyword}`);
      const [name, value] = args.split("=", 2);
      globalArgs[name!] = value;
    } else {
      stages.at(-1)!.instructions.push({ keyword, args });
    }
  }
  return { globalArgs, stages };
}

/** `${NAME}` and `$NAME` replaced from `values`; an unknown name is an error. */
export function substituteArgs(text: string, values: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = values[name];
    if (value === undefined) throw new Error(`Dockerfile uses $${name}, which has no value`);
    return value;
  });
}

export interface CopyInstruction {
  from: string | undefined;
  sources: string[];
  destination: string;
}

export function parseCopy(args: string): CopyInstruction {
  const words = args.startsWith("[") ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  if (paths.length < 2) throw new Error(`COPY ${args}: needs a source and a destination`);
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1)! };
}

/** The exec form of HEALTHCHECK ... CMD [...], with its options. */
export function parseHealthcheck(args: string): { options: Record<string, string>; command: string[] } {
  const match = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(\[.*\])$/.exec(args);
  if (!match) throw new Error(`HEALTHCHECK ${args}: expected options then CMD ["…"]`);
  const options = Object.fromEntries(
    match[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((option) => option.slice(2).split("=", 2) as [string, string]),
  );
  return { options, command: JSON.parse(match[2]!) as string[] };
}

// --- .dockerignore ---------------------------------------------------------------

/**
 * Whether .dockerignore keeps `path` out of the build context. Covers the
 * forms used here (`name`, `dir/name`, `**` and `*`, `!` exceptions); the
 * last matching line wins, as in Docker.
 */
export function isDockerIgnored(path: string, dockerignore: string): boolean {
  let ignored = false;
  for (const raw of dockerignore.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    const pattern = (negated ? line.slice(1) : line).replace(/^\/+|\/+$/g, "");
    const source = pattern
      .split("/")
      .map((part) =>
        part === "**"
          ? "(?:.*)"
          : part
              .replace(/[.+^${}()|[\]\\]/g, "\\$&")
              .replaceAll("*", "[^/]*")
              .replaceAll("?", "[^/]"),
      )
      .join("/")
      .replaceAll("(?:.*)/", "(?:.*/)?");
    // A pattern that names a folder also covers everything in it.
    if (new RegExp(`^${source}(?:/.*)?$`).test(path)) ignored = !negated;
  }
  return ignored;
}
