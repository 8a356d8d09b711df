import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "@linkgeo/shared";
import { readGatewayConfig } from "../../gateway/src/config.ts";
import { readGeocoderConfig } from "../../geocoder/src/config.ts";
import { readImportCommandConfig, readShortenerConfig, readSuperuserCommandConfig } from "../../shortener/src/config.ts";

/**
 * docs/configuration.md has a table of variables per service, and each
 * service reads its variables in one place, at start. The two must name
 * the same variables: one listed that the service never reads is a
 * setting that does nothing (the geocoder's table once listed
 * IMPORT_MAX_BYTES), one read but not listed is a setting nobody can find.
 */

const root = join(import.meta.dir, "../..");
const page = readFileSync(join(root, "docs/configuration.md"), "utf8");

/** A numbered family (`NOMINATIM_REVERSER_REPLICA_URL_<n>`) is found by going through the environment's names. */
const enumerated = "(the environment's names)";

/**
 * Every variable name the readers ask for, with nothing set and with each
 * of `settings` (a variable read only when another is set, a provider's
 * URL once its key is, is asked for then).
 */
function variablesRead(readers: Array<(env: Env) => unknown>, settings: Env[] = []): Set<string> {
  const asked = new Set<string>();
  for (const set of [{}, ...settings]) {
    const note = (name: string | symbol) => typeof name === "string" && asked.add(name);
    const env = new Proxy(set, {
      get: (target, name) => {
        note(name);
        return Reflect.get(target, name);
      },
      has: (target, name) => {
        note(name);
        return Reflect.has(target, name);
      },
      ownKeys: (target) => {
        asked.add(enumerated);
        return Reflect.ownKeys(target);
      },
    });
    for (const read of readers) read(env);
  }
  return asked;
}

/** The variables named in the first cell of the table rows of one service's section; a numbered family is one the reader enumerates. */
function tableVariables(heading: string): Set<string> {
  const start = page.indexOf(`\n${heading}\n`);
  const next = page.indexOf("\n## ", start + heading.length);
  const rows = page.slice(start, next === -1 ? undefined : next).split("\n");
  const names = rows.filter((row) => row.startsWith("| `")).flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)(_<n>)?`/g)]);
  return new Set(names.map(([, name, numbered]) => (numbered ? enumerated : name!)));
}

const services = [
  { service: "shortener", heading: "## The shortener", read: variablesRead([readShortenerConfig, readSuperuserCommandConfig, readImportCommandConfig]) },
  { service: "geocoder", heading: "## The geocoder", read: variablesRead([readGeocoderConfig], [{ GEOAPIFY_API_KEY: "key", HERE_API_KEY: "key" }]) },
  { service: "gateway", heading: "## The gateway", read: variablesRead([readGatewayConfig]) },
];

describe("docs/configuration.md's variable tables", () => {
  for (const { service, heading, read } of services) {
    test(`list exactly the variables the ${service} reads`, () => {
      const listed = tableVariables(heading);
      expect({ listedNotRead: [...listed].filter((name) => !read.has(name)), readNotListed: [...read].filter((name) => !listed.has(name)) }).toEqual({
        listedNotRead: [],
        readNotListed: [],
      });
    });
  }
});
