import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { apiTypesPath, apiTypesSource } from "../../../scripts/build-api-types.ts";

// The browser's API types are generated from the services' schemas: a schema changed without
// `bun run build:api-types` leaves the web app type-checked against an API that no longer is.
test("the committed api-types.ts is what bun run build:api-types writes from the services' schemas now", async () => {
  const committed = readFileSync(apiTypesPath, "utf8");
  const current = await apiTypesSource();
  expect(committed).toBe(current);
});
