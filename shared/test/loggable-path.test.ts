import { describe, expect, test } from "bun:test";
import { loggablePath } from "../src/http/loggable-path.ts";

describe("a path as the access log shows it", () => {
  test.each([
    ["/reverse-geocode/jobs/9f8e7d6c", "/reverse-geocode/jobs/:id"],
    ["/reverse-geocode/jobs/9f8e7d6c/results", "/reverse-geocode/jobs/:id/results"],
    ["/geocode/jobs/9f8e7d6c", "/geocode/jobs/:id"],
    ["/geocode/jobs/9f8e7d6c/results", "/geocode/jobs/:id/results"],
    ["/invites/lgi_3d7nIHvmAxPcJrD2mlxLlRTDkap2aqiqDJwzN_N2OE8/accept", "/invites/:token/accept"],
    ["/invites/anything-at-all", "/invites/:token"],
    ["//INVITES/lgi_3d7nIHvmAxPcJrD2mlxLlRTDkap2aqiqDJwzN_N2OE8/accept", "//INVITES/:token/accept"],
    ["http://bad host/invites/lgi_3d7nIHvmAxPcJrD2mlxLlRTDkap2aqiqDJwzN_N2OE8/accept", "http://bad host/invites/lgi_:token/accept"],
  ])("a secret in %p is left out: %p", (path, shown) => {
    expect(loggablePath(path)).toBe(shown);
  });

  test.each(["/", "/abc1234/", "/workspaces/3/invites", "/reverse-geocode/jobs", "/geocode/jobs", "/shorten/invites/"])("%p is shown as it is", (path) => {
    expect(loggablePath(path)).toBe(path);
  });
});
