import { freePort } from "@linkgeo/testing";
import { join } from "node:path";
import { spawnChild, waitForChild, type Child } from "./children.ts";
import { BenchError } from "./lifecycle.ts";

const bareServerPath = join(import.meta.dir, "..", "bare-server.ts");

/** The one response the bare server sends to every request. */
export interface FixedResponse {
  status: number;
  headers: Record<string, string>;
  /** Null: no body (a redirect). */
  body: string | null;
}

/**
 * Starts bench/bare-server.ts on a free port, answering `response`, and
 * checks it does: the status, each given header, and the body byte for byte.
 */
export async function startBareServer(response: FixedResponse): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    STATUS: String(response.status),
    HEADERS: JSON.stringify(response.headers),
  };
  if (response.body === null) delete env.BODY;
  else env.BODY = response.body;
  const child = spawnChild("bare server", [process.execPath, "run", bareServerPath], { env });
  const url = `http://127.0.0.1:${port}/`;
  await waitForChild(child, `the bare server on ${url}`, async () => {
    const answer = await fetch(url, { redirect: "manual" }).catch(() => null);
    await answer?.arrayBuffer();
    return answer?.status === response.status;
  });

  const answer = await fetch(url, { redirect: "manual" });
  const body = new Uint8Array(await answer.arrayBuffer());
  for (const [name, value] of Object.entries(response.headers)) {
    if (answer.headers.get(name) !== value) throw new BenchError(`the bare server sends ${name}: ${answer.headers.get(name)}, not ${value}`);
  }
  const expected = new TextEncoder().encode(response.body ?? "");
  if (!Bun.deepEquals(body, expected)) throw new BenchError(`the bare server sends a ${body.length}-byte body, not the ${expected.length} bytes it was given`);
  return { url, child };
}
