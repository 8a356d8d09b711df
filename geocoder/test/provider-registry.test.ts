import { describe, expect, test } from "bun:test";
import { ProviderRegistry } from "../src/providers/provider-registry.ts";
import type { Provider } from "../src/providers/provider.ts";

const named = (name: string): Provider => ({ name, url: `http://${name.toLowerCase()}/reverse`, offline: false, reverse: async () => [] });
const names = (providers: Provider[]) => providers.map((p) => p.name);

describe("provider registry", () => {
  const all = ["HERE", "GEOAPIFY", "NOMINATIM", "NOMINATIM_REPLICA_1", "NOMINATIM_REPLICA_2", "NOMINATIM_REPLICA_3"].map(named);

  test("finds a platform without regard to case", () => {
    const registry = new ProviderRegistry(all, ["REPLICAS", "NOMINATIM", "GEOAPIFY", "HERE"]);
    expect(registry.find("nominatim_replica_2")?.name).toBe("NOMINATIM_REPLICA_2");
    expect(registry.find("Here")?.name).toBe("HERE");
    expect(registry.find("google")).toBeUndefined();
  });

  test("the default chain puts the replicas first, rotating which one leads", () => {
    const registry = new ProviderRegistry(all, ["REPLICAS", "NOMINATIM", "GEOAPIFY", "HERE"]);
    const rest = ["NOMINATIM", "GEOAPIFY", "HERE"];
    expect(names(registry.defaultChain())).toEqual(["NOMINATIM_REPLICA_1", "NOMINATIM_REPLICA_2", "NOMINATIM_REPLICA_3", ...rest]);
    expect(names(registry.defaultChain())).toEqual(["NOMINATIM_REPLICA_2", "NOMINATIM_REPLICA_3", "NOMINATIM_REPLICA_1", ...rest]);
    expect(names(registry.defaultChain())).toEqual(["NOMINATIM_REPLICA_3", "NOMINATIM_REPLICA_1", "NOMINATIM_REPLICA_2", ...rest]);
  });

  test("follows the configured order and leaves out what is not registered", () => {
    const registry = new ProviderRegistry([named("GEOAPIFY"), named("HERE")], ["HERE", "NOMINATIM", "GEOAPIFY"]);
    expect(names(registry.defaultChain())).toEqual(["HERE", "GEOAPIFY"]);
    expect(new ProviderRegistry([], ["REPLICAS", "NOMINATIM"]).defaultChain()).toEqual([]);
  });

  test("lists every provider with its keyless url", () => {
    expect(new ProviderRegistry([named("HERE")], ["HERE"]).list()).toEqual([{ name: "HERE", url: "http://here/reverse" }]);
  });
});
