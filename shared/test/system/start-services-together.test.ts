import { expect, test } from "bun:test";
import { freePort, startServicesTogether, type ServiceProcess } from "@linkgeo/testing";

test("a service that cannot start stops the ones started beside it: no process is left behind", async () => {
  /** A stack that also keeps what was put on it, to look at after the start failed. */
  const kept: ServiceProcess[] = [];
  const stack = new (class extends AsyncDisposableStack {
    override use<T extends AsyncDisposable | Disposable | null | undefined>(value: T): T {
      kept.push(value as unknown as ServiceProcess);
      return super.use(value);
    }
  })();
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const starting = startServicesTogether(stack, [
    { service: "gateway", env: { SHORTENER_URL: nowhere, GEOCODER_URL: nowhere }, options: { name: "gateway-ok", echo: false } },
    // A configuration the gateway refuses at start: it exits with 1.
    { service: "gateway", env: { SHORTENER_URL: "not a url", GEOCODER_URL: nowhere }, options: { name: "gateway-refused", echo: false } },
  ]);
  await expect(starting).rejects.toThrow();
  expect(kept.map((service) => service.name)).toEqual(["gateway-ok"]);
  expect((await fetch(`${kept[0]!.url}/health`)).status).toBe(200);
  await stack.disposeAsync();
  expect(await kept[0]!.exited).toBeGreaterThanOrEqual(0);
  expect(
    await fetch(`${kept[0]!.url}/health`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
});
