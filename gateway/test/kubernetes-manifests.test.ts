import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { Service } from "kubernetes-models/v1/Service";
import { readGeocoderConfig } from "../../geocoder/src/config.ts";
import { readShortenerConfig } from "../../shortener/src/config.ts";
import { inAnyIpRange, parseIp } from "@linkgeo/shared";
import { configProblems } from "@linkgeo/testing";
import { readGatewayConfig } from "../src/config.ts";
import { readRepositoryFile, repositoryRoot } from "./support/deployment-files.ts";

// There is no Kubernetes where the tests run: the manifests of deploy/kubernetes are
// validated against the Kubernetes schemas (kubernetes-models) and held against the
// code they deploy, as compose.test.ts does for compose.yaml.

const folder = "deploy/kubernetes";
// biome-ignore lint/suspicious/noExplicitAny: manifests are read as plain YAML documents
type Manifest = Record<string, any>;
const manifests: Array<{ file: string; object: Manifest }> = readdirSync(join(repositoryRoot, folder))
  .filter((file) => file.endsWith(".yaml"))
  .flatMap((file) => (Bun.YAML.parse(readRepositoryFile(join(folder, file))) as Manifest[] | Manifest) ?? [])
  .flat()
  .map((object: Manifest) => ({ file: object.metadata?.name, object }));

// biome-ignore lint/suspicious/noExplicitAny: each model class takes its own object type; the YAML is checked by validate()
const models: Record<string, new (data: any) => { validate(): void }> = {
  "apps/v1 Deployment": Deployment,
  "v1 Service": Service,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1 NetworkPolicy": NetworkPolicy,
  "networking.k8s.io/v1 Ingress": Ingress,
  "monitoring.coreos.com/v1 ServiceMonitor": ServiceMonitor,
};

const readers = { shortener: readShortenerConfig, geocoder: readGeocoderConfig, gateway: readGatewayConfig };
type AppName = keyof typeof readers;
const appNames = Object.keys(readers) as AppName[];
const ofKind = (kind: string) => manifests.map((m) => m.object).filter((object) => object.kind === kind);
const deployment = (name: AppName) => ofKind("Deployment").find((object) => object.metadata.name === name)!;
const container = (name: AppName) => deployment(name).spec.template.spec.containers[0];
const envOf = (name: AppName): Manifest[] => container(name).env;

/** The container's environment as Kubernetes gives it once the Secret "linkgeo" holds a value for every key. */
function withSecrets(name: AppName): Record<string, string> {
  const secretValues: Record<string, string> = {
    "database-url": "postgres://linkgeo:password@postgres:5432/linkgeo",
    "shortener-redis-url": "redis://redis:6379/1",
    "geocoder-redis-url": "redis://redis:6379/2",
    "geocoder-jobs-database-url": "postgres://linkgeo:password@postgres:5432/linkgeo",
    "gateway-redis-url": "redis://redis:6379/3",
    "elysia-secret-key": "0123456789abcdef".repeat(4),
    "internal-secret": "fedcba9876543210".repeat(4),
    "geocoder-jobs-secret": "0011223344556677".repeat(4),
  };
  return Object.fromEntries(
    envOf(name).flatMap((variable) => {
      const value = variable.value ?? secretValues[variable.valueFrom?.secretKeyRef?.key];
      return value === undefined ? [] : [[variable.name, value]];
    }),
  );
}

/** The names a config reader looks up when given an environment: what it reads, and nothing else counts. */
function namesLookedUp(name: AppName): Set<string> {
  const seen = new Set<string>();
  const spy = new Proxy({} as Record<string, string>, {
    get(target, key) {
      if (typeof key === "string") seen.add(key);
      return Reflect.get(target, key);
    },
  });
  try {
    readers[name](spy);
  } catch {
    // Missing required variables: the names were looked up all the same.
  }
  return seen;
}

describe("deploy/kubernetes: the manifests", () => {
  test("every object validates against its Kubernetes schema, and is one of the kinds we ship", () => {
    expect(manifests.length).toBeGreaterThan(0);
    for (const { object } of manifests) {
      const model = models[`${object.apiVersion} ${object.kind}`];
      expect({ kind: `${object.apiVersion} ${object.kind}`, known: model !== undefined }).toEqual({ kind: `${object.apiVersion} ${object.kind}`, known: true });
      expect(() => new model!(object).validate()).not.toThrow();
    }
    expect(
      ofKind("Deployment")
        .map((object) => object.metadata.name)
        .sort(),
    ).toEqual(["gateway", "geocoder", "shortener"]);
  });

  test("a manifest that breaks the schema is refused (the validator is on)", () => {
    const broken = structuredClone(deployment("shortener"));
    broken.spec.replicas = "two";
    expect(() => new Deployment(broken).validate()).toThrow();
  });

  test("each service gets only variables its config reads, every one it needs, secrets only by reference", () => {
    for (const name of appNames) {
      const read = namesLookedUp(name);
      const set = envOf(name).map((variable) => variable.name as string);
      expect({ name, unread: set.filter((variable) => !read.has(variable)) }).toEqual({ name, unread: [] });
      // With the Secret's values in place the configuration is complete.
      expect({ name, problems: configProblems(readers[name], withSecrets(name)) }).toEqual({ name, problems: [] });
      for (const variable of envOf(name)) {
        if (/SECRET|KEY|PASSWORD|DATABASE_URL|REDIS_URL/.test(variable.name)) {
          expect({ name: variable.name, fromSecret: variable.valueFrom?.secretKeyRef?.name }).toEqual({ name: variable.name, fromSecret: "linkgeo" });
        }
      }
    }
  });

  test("the shortener and the geocoder believe the gateway's X-Forwarded-For from the cluster's private addresses", () => {
    for (const address of ["10.244.1.17", "172.20.0.9", "192.168.3.4"]) {
      const trusted = (config: { trustedProxies: Parameters<typeof inAnyIpRange>[1] }) => inAnyIpRange(parseIp(address)!, config.trustedProxies);
      expect({ address, shortener: trusted(readShortenerConfig(withSecrets("shortener"))) }).toEqual({ address, shortener: true });
      // Who made a geocoding job: its quotas count the address the gateway forwards, the same on every pod (one secret).
      expect({ address, geocoder: trusted(readGeocoderConfig(withSecrets("geocoder"))) }).toEqual({ address, geocoder: true });
    }
    expect(readGeocoderConfig(withSecrets("geocoder")).jobsSecret).toBeString();
  });

  test("ports, probes and the metrics port match what each service listens on", () => {
    for (const name of appNames) {
      const port = readers[name](withSecrets(name)).port;
      const ports = Object.fromEntries(container(name).ports.map((p: Manifest) => [p.name, p.containerPort]));
      expect({ name, ports }).toEqual({ name, ports: { http: port, metrics: 9464 } });
      expect(envOf(name).find((v) => v.name === "METRICS_PORT")?.value).toBe("9464");
      expect(container(name).readinessProbe.httpGet).toEqual({ path: "/ready", port: "http" });
      expect(container(name).livenessProbe.httpGet).toEqual({ path: "/health", port: "http" });
      expect(container(name).image).toBe(`linkgeo/${name}:1.0.0`);
    }
  });

  test("every container runs as non-root on a read-only root filesystem, with no capability and a memory limit", () => {
    for (const name of appNames) {
      const pod = deployment(name).spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(container(name).securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
      expect(container(name).resources.limits.memory).toBeString();
      expect(pod.volumes.map((volume: Manifest) => volume.name)).toContain("tmp");
    }
  });

  test("each Service, autoscaler and disruption budget points at a Deployment's pods; the load balancer carries no metrics port", () => {
    for (const service of ofKind("Service")) {
      const target = ofKind("Deployment").find(
        (object) => object.spec.template.metadata.labels["app.kubernetes.io/name"] === service.spec.selector["app.kubernetes.io/name"],
      );
      expect({ service: service.metadata.name, selects: target?.metadata.name !== undefined }).toEqual({ service: service.metadata.name, selects: true });
      if (service.spec.type === "LoadBalancer") expect(service.spec.ports.map((p: Manifest) => p.name)).toEqual(["http"]);
    }
    for (const name of appNames) {
      expect(ofKind("HorizontalPodAutoscaler").find((object) => object.spec.scaleTargetRef.name === name)).toBeDefined();
      expect(ofKind("PodDisruptionBudget").find((object) => object.spec.selector.matchLabels["app.kubernetes.io/name"] === name)).toBeDefined();
    }
  });

  test("the Ingress sends every host it serves to the gateway's http port, each host with its TLS certificate", () => {
    const ingress = ofKind("Ingress")[0]!;
    const hosts = ingress.spec.rules.map((rule: Manifest) => rule.host);
    expect(hosts.length).toBeGreaterThan(1);
    for (const rule of ingress.spec.rules) {
      expect(rule.http.paths).toEqual([{ path: "/", pathType: "Prefix", backend: { service: { name: "gateway", port: { name: "http" } } } }]);
    }
    const gatewayService = ofKind("Service").find((service) => service.metadata.name === "gateway")!;
    expect(gatewayService.spec.ports.map((port: Manifest) => port.name)).toContain("http");
    expect(ingress.spec.tls.flatMap((tls: Manifest) => tls.hosts).sort()).toEqual([...hosts].sort());
  });

  test("only the gateway reaches the services' API ports, only Prometheus the metrics ports, and everything else is denied", () => {
    const policies = ofKind("NetworkPolicy");
    const deny = policies.find((policy) => policy.metadata.name === "linkgeo-default-deny")!;
    expect(deny.spec).toEqual({ podSelector: { matchLabels: { "app.kubernetes.io/part-of": "linkgeo" } }, policyTypes: ["Ingress"] });
    const services = policies.find((policy) => policy.metadata.name === "services-from-gateway")!;
    expect(services.spec.ingress).toEqual([
      {
        from: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } }],
        ports: [
          { protocol: "TCP", port: 3001 },
          { protocol: "TCP", port: 3002 },
        ],
      },
    ]);
    const metrics = policies.find((policy) => policy.metadata.name === "metrics-from-prometheus")!;
    expect(metrics.spec.ingress[0].ports).toEqual([{ protocol: "TCP", port: 9464 }]);
    const monitor = ofKind("ServiceMonitor")[0]!;
    expect(monitor.spec.endpoints).toEqual([{ port: "metrics", path: "/metrics", interval: "15s" }]);
  });
});
