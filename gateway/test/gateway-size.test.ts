import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The gateway routes, limits and forwards; pages for people are the web
// app's (webapp/). A gateway that grows past this is taking on a job of
// another workspace's, or a step of its pipeline is being written twice.
const maxGatewayLines = 3_000;

test(`the gateway's own source stays under ${maxGatewayLines} lines: the web app is a workspace of its own`, () => {
  const src = join(import.meta.dir, "..", "src");
  const files = readdirSync(src, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith(".ts"));
  const lines = files.reduce((sum, entry) => sum + readFileSync(join(entry.parentPath, entry.name), "utf8").split("\n").length - 1, 0);
  expect(files.length).toBeGreaterThan(20);
  expect(lines).toBeLessThan(maxGatewayLines);
});
