import { Elysia } from "elysia";

/**
 * The Elysia instance a service's app is built on. A request a Bun server
 * takes is routed by Bun's own router; one handed to `app.handle` (in
 * process, as the suites do) by Elysia's, which by default finds the path by
 * skipping the first 11 characters of the URL (`http://a.bc`), as if every
 * Host had four characters at least: with `Host: ab`, `/shorten/x1` was
 * routed as `/x1`. `standardHostname: false` skips only `http://`, which is
 * all our services speak (TLS ends in front of them).
 */
export function rootApp() {
  return new Elysia({ handler: { standardHostname: false } });
}
