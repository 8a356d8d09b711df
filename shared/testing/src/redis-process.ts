import { freePort } from "./free-port.ts";
import { waitFor } from "./wait-for.ts";

export interface RedisProcess extends AsyncDisposable {
  url: string;
  port: number;
  pid: number;
  kill(): Promise<void>;
}

/**
 * A private redis-server on a free port, for tests that kill Redis while a
 * service runs, and for a run's throwaway Redis (throwaway-servers.ts).
 * Uses the same binary as the machine's own Redis unless given another.
 */
export async function startRedisProcess({ binary = "redis-server" } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const child = Bun.spawn([binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdout: "ignore",
    stderr: "inherit",
  });
  await waitFor(`redis-server on ${port}`, async () => {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).catch(() => null);
    socket?.end();
    return socket !== null;
  });
  const kill = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  return { url: `redis://127.0.0.1:${port}/0`, port, pid: child.pid, kill, [Symbol.asyncDispose]: kill };
}
