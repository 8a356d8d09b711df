import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@linkgeo/testing";
import { spawnChild, waitForChild, type Child } from "./children.ts";
import { onCleanup } from "./lifecycle.ts";

/** Where Debian puts it; also looked up on PATH. */
const debianPath = "/usr/sbin/nginx";

/** The nginx binary, or undefined when it is not installed. */
export function findNginx(): string | undefined {
  return Bun.which("nginx") ?? Bun.which("nginx", { PATH: "/usr/sbin:/usr/local/sbin" }) ?? (Bun.file(debianPath).size > 0 ? debianPath : undefined);
}

/**
 * nginx as a reverse proxy in front of `upstream`, configured as an operator
 * would for speed: one process serving (master_process off: the process
 * measured is the one that serves, as one worker would), an upstream block
 * with keepalive 64, HTTP/1.1 to the upstream with the Connection header
 * cleared, access log off, X-Forwarded-For set. Everything it writes lives
 * in a temporary folder, removed at the end.
 */
export async function startNginx(binary: string, upstream: URL): Promise<{ base: string; child: Child }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-nginx-"));
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const config = `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream shortener {
    server ${upstream.host};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://shortener;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host;
    }
  }
}
`;
  const configPath = join(dir, "nginx.conf");
  writeFileSync(configPath, config);
  const child = spawnChild("nginx", [binary, "-p", dir, "-c", configPath, "-e", join(dir, "error.log")], { env: { ...process.env } });
  const base = `http://127.0.0.1:${port}`;
  await waitForChild(child, `nginx on ${base}`, async () => {
    const answer = await fetch(`${base}/health`).catch(() => null);
    await answer?.arrayBuffer();
    return answer?.status === 200;
  });
  return { base, child };
}
