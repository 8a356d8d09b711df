import type { OrderEntry } from "../config.ts";
import type { Provider } from "./provider.ts";

/**
 * The registered providers: who answers a named platform, and the default
 * chain, in which the replicas come first, rotated on every call so that
 * load is balanced across them.
 */
export class ProviderRegistry {
  private readonly byName = new Map<string, Provider>();
  private nextReplica = 0;

  constructor(
    private readonly providers: Provider[],
    private readonly order: OrderEntry[],
  ) {
    for (const provider of providers) this.byName.set(provider.name.toLowerCase(), provider);
  }

  list(): Array<{ name: string; url: string }> {
    return this.providers.map((provider) => ({ name: provider.name, url: provider.url }));
  }

  isEmpty(): boolean {
    return this.providers.length === 0;
  }

  names(): string[] {
    return this.providers.map((provider) => provider.name);
  }

  /** The provider for `platform`, matched without regard to case. */
  find(platform: string): Provider | undefined {
    return this.byName.get(platform.toLowerCase());
  }

  defaultChain(): Provider[] {
    const replicas = this.providers.filter((provider) => isReplica(provider.name));
    const start = replicas.length > 0 ? this.nextReplica++ % replicas.length : 0;
    const rotated = [...replicas.slice(start), ...replicas.slice(0, start)];
    return this.order.flatMap((entry) => {
      if (entry === "REPLICAS") return rotated;
      const provider = this.byName.get(entry.toLowerCase());
      return provider ? [provider] : [];
    });
  }
}

export function replicaName(number: number): string {
  return `NOMINATIM_REPLICA_${number}`;
}

function isReplica(name: string): boolean {
  return name.startsWith("NOMINATIM_REPLICA_");
}
