import { join } from "node:path";
import { freePort } from "@linkgeo/testing";
import { spawnChild, waitForChild, type Child } from "./children.ts";

const commitServerPath = join(import.meta.dir, "..", "commit-server.ts");

/**
 * Starts bench/commit-server.ts on a free port: the shortener's 302 (`headers`)
 * after a durable group commit to `databaseUrl` (a Postgres URL or a SQLite
 * file), with up to `inFlight` commits at once; checks it answers.
 */
export async function startCommitServer(databaseUrl: string, inFlight: number, headers: Record<string, string>): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl, IN_FLIGHT: String(inFlight), HEADERS: JSON.stringify(headers) };
  const child = spawnChild(`commit server (${inFlight} in flight)`, [process.execPath, "run", commitServerPath], { env });
  const url = `http://127.0.0.1:${port}/`;
  await waitForChild(child, `the commit server on ${url}`, async () => {
    const answer = await fetch(url, { redirect: "manual" }).catch(() => null);
    return answer?.status === 302;
  });
  return { url, child };
}
