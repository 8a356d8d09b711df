import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DomainView } from "@linkgeo/shared";
import { createTestDatabase, rawRequest, readJson, runBounded, startServicesTogether, tally, waitFor, type ServiceProcess } from "@linkgeo/testing";

/**
 * Several domains as a deployment runs them: two shortener replicas behind
 * one gateway, on each engine. The same code on two hosts is two links,
 * each counted exactly whichever replica a redirect reaches; the host is
 * the client's Host, or a trusted proxy's X-Forwarded-Host, never one a
 * client that is no trusted proxy names.
 */

const adminPassword = "a long passphrase for the domains test";

/** Two replicas on one database (a Postgres database, or one SQLite file both open), and a gateway in front that trusts no client here. */
async function startDeployment(engine: "sqlite" | "postgres", stack: AsyncDisposableStack) {
  let databaseUrl: string;
  if (engine === "postgres") {
    const database = await createTestDatabase("domains");
    stack.defer(() => database.drop());
    databaseUrl = database.url;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "domains-"));
    stack.defer(() => rmSync(dir, { recursive: true, force: true }));
    databaseUrl = `sqlite://${join(dir, "shortener.db")}`;
  }
  const shortenerEnv = { DATABASE_URL: databaseUrl };
  // The first replica makes the database (its migrations); the second opens it made.
  const [first] = await startServicesTogether(stack, [{ service: "shortener", env: shortenerEnv, options: { name: "shortener-1", echo: false } }]);
  const [second] = await startServicesTogether(stack, [{ service: "shortener", env: shortenerEnv, options: { name: "shortener-2", echo: false } }]);
  await createSuperuser(databaseUrl);
  const [gateway] = await startServicesTogether(stack, [
    {
      service: "gateway",
      env: {
        SHORTENER_URL: `${first.url},${second.url}`,
        GEOCODER_URL: first.url,
        // No client of this test is a trusted proxy: an X-Forwarded-Host it sends is its own words.
        TRUSTED_PROXIES: "192.0.2.1/32",
        ...Object.fromEntries(["CREATE", "API", "REDIRECT", "LOGIN", "LOGIN_USER"].map((name) => [`RATE_LIMIT_${name}`, "off"])),
      },
      options: { echo: false },
    },
  ]);
  return { gateway, replicas: [first, second] as ServiceProcess[] };
}

async function createSuperuser(databaseUrl: string): Promise<void> {
  const command = Bun.spawn([process.execPath, "run", "createsuperuser", "--username", "admin", "--password-stdin", "--no-input"], {
    cwd: join(import.meta.dir, "../../../shortener"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DATABASE_URL: databaseUrl },
    stdin: new Blob([`${adminPassword}\n`]),
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await command.exited) !== 0) throw new Error(`createsuperuser failed: ${await new Response(command.stderr).text()}`);
}

describe.each(["sqlite", "postgres"] as const)("domains through the gateway, two replicas, on %s", (engine) => {
  const stack = new AsyncDisposableStack();
  let gateway: ServiceProcess;
  let token: string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method,
      redirect: "manual",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    ({ gateway } = await startDeployment(engine, stack));
    const login = await fetch(`${gateway.url}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: adminPassword }),
    });
    token = (await readJson(login)).token;
  }, 60_000);
  afterAll(() => stack.disposeAsync());

  test("the same code on two hosts redirects each to its own URL, with exact, separate counts and visits", async () => {
    const domain: DomainView = await readJson(await call("POST", "/admin/domains", { host: "go.brand.test" }));
    expect(domain.host).toBe("go.brand.test");
    expect((await call("POST", "/shorten/", { long_url: "https://example.com/plain", short_url: "launch" })).status).toBe(201);
    expect((await call("POST", "/shorten/", { long_url: "https://brand.example/launch", short_url: "launch", domain: "go.brand.test" })).status).toBe(201);

    // 300 redirects at once, two in three on the brand's host, spread over both replicas (batched by the gateway).
    const hosts = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? "127.0.0.1" : "go.brand.test"));
    const seen = await runBounded(hosts.length, 24, async (i) => {
      const response = await fetch(`${gateway.url}/launch`, { redirect: "manual", headers: { host: hosts[i]! } });
      await response.arrayBuffer();
      return `${hosts[i]} ${response.status} ${response.headers.get("location")}`;
    });
    expect(tally(seen)).toEqual({ "127.0.0.1 302 https://example.com/plain": 100, "go.brand.test 302 https://brand.example/launch": 200 });

    const stats = async (query: string) => (await readJson(await call("GET", `/shorten/launch/stats/${query}`))).access_count;
    expect([await stats("?domain=go.brand.test"), await stats("")]).toEqual([200, 100]);
    const visits = async (query: string) => (await readJson(await call("GET", `/shorten/launch/visits/${query}`))).totals.visits;
    expect([await visits("?domain=go.brand.test"), await visits("")]).toEqual([200, 100]);
  });

  test("an X-Forwarded-Host from a client that is no trusted proxy does not pick the domain; an unknown host is the default domain", async () => {
    const forged = await rawRequest(gateway.port, "GET /launch HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: go.brand.test\r\nConnection: close\r\n\r\n");
    expect([forged.status, forged.headers.location]).toEqual([302, "https://example.com/plain"]);
    const elsewhere = await fetch(`${gateway.url}/launch`, { redirect: "manual", headers: { host: "unknown.test" } });
    expect(elsewhere.headers.get("location")).toBe("https://example.com/plain");
  });

  test("/ on a domain's host goes to its root URL; without one, an added domain's is a 404 page, the default domain's the home page", async () => {
    const domains: { results: DomainView[] } = await readJson(await call("GET", "/admin/domains"));
    const brand = domains.results.find((domain) => domain.host === "go.brand.test")!;
    const root = async (host: string) => {
      const response = await fetch(`${gateway.url}/`, { redirect: "manual", headers: { host, accept: "text/html" } });
      const body = await response.text();
      return `${response.status} ${response.headers.get("location") ?? /<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1] ?? "no heading"}`;
    };
    // Each replica sees a change at once if it made it, else within a second: so four answers in a row, over both.
    const settles = (host: string, expected: string) =>
      waitFor(`/ on ${host}: ${expected}`, async () => {
        const answers = await Promise.all([1, 2, 3, 4].map(() => root(host)));
        return answers.every((answer) => answer === expected);
      });
    const home = await root("127.0.0.1");
    expect(home).toStartWith("200 ");

    expect((await call("PATCH", `/admin/domains/${brand.id}`, { root_url: "https://brand.example/" })).status).toBe(200);
    await settles("go.brand.test", "302 https://brand.example/");
    // The default domain's root is untouched, and a client that is no trusted proxy cannot name the brand's host.
    expect(await root("127.0.0.1")).toBe(home);
    const forged = await rawRequest(gateway.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: go.brand.test\r\nConnection: close\r\n\r\n");
    expect(forged.status).toBe(200);

    expect((await call("PATCH", `/admin/domains/${brand.id}`, { root_url: null })).status).toBe(200);
    await settles("go.brand.test", "404 Page not found");
    expect(await root("127.0.0.1")).toBe(home);
  });

  test("a domain deleted with its links: the links are gone on both replicas, the host is the default domain's again", async () => {
    const domains: { results: DomainView[] } = await readJson(await call("GET", "/admin/domains"));
    const brand = domains.results.find((domain) => domain.host === "go.brand.test")!;
    expect((await call("DELETE", `/admin/domains/${brand.id}`)).status).toBe(409);
    expect((await call("DELETE", `/admin/domains/${brand.id}?links=delete`)).status).toBe(204);
    // The other replica reads the domains again within a second: until then it may still take the host for the brand's,
    // whose link is gone (a 404). The brand's link itself is never followed again, on either replica.
    const seen: Array<string | null> = [];
    await waitFor("ten redirects in a row to the default domain's link", async () => {
      const response = await fetch(`${gateway.url}/launch`, { redirect: "manual", headers: { host: "go.brand.test" } });
      await response.arrayBuffer();
      seen.push(response.headers.get("location"));
      return seen.length >= 10 && seen.slice(-10).every((location) => location === "https://example.com/plain");
    });
    expect(seen).not.toContain("https://brand.example/launch");
    expect((await call("GET", "/shorten/launch/?domain=go.brand.test")).status).toBe(404);
  });
});
