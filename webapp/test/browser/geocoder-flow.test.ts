import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { fixtureText, reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";
import { cacheLevelWords, geocodeErrorWords, type GeocodeErrorLike, type GeocodeErrorWords } from "../../src/client/lib/geocode-words.ts";
import { coordinatesToPoint } from "../../src/world-map.ts";
import { checkPageState } from "./support/page-states.ts";
import { launchWebBrowser, viewports, type OpenedPage, type ViewportName, type WebBrowser, downloaded } from "./support/web-browser.ts";
import { startWebStack, type WebStack } from "../support/web-stack.ts";

const paris = { latitude: 48.8566, longitude: 2.3522 };
const parisFixture = "nominatim-01-paris-rue-quincampoix-fr-jsonv2.json";

describe.concurrent("the geocoder playground in a real browser, offline", () => {
  let stack: WebStack;
  let browser: WebBrowser;
  let nominatim: FakeProvider;

  beforeAll(async () => {
    // A second provider beside LOCAL: a fake Nominatim on a real socket. LOCAL
    // comes first in the default chain, so a click is answered from real data.
    nominatim = startFakeProvider({ otherwise: reply.fixture(parisFixture) });
    stack = await startWebStack({
      geocoderEnv: { NOMINATIM_URL: nominatim.url().toString(), NOMINATIM_USER_AGENT: "linkgeo-web-tests", GEOCODER_DEFAULT_ORDER: "LOCAL,NOMINATIM" },
    });
    browser = await launchWebBrowser();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
    await stack?.[Symbol.asyncDispose]();
    await nominatim?.close();
  });

  /** The playground, with its map drawn and its list of geocoders loaded. */
  async function openPlayground(viewport: ViewportName = "desktop"): Promise<OpenedPage> {
    const opened = await browser.open(`${stack.url}/app/geocoder`, viewport);
    await opened.page.locator("svg.world-map path.country").first().waitFor();
    await opened.page.locator("#geocoder-list:not([aria-busy])").waitFor({ state: "attached" });
    return opened;
  }

  /** Where on screen the map draws these coordinates, whatever its zoom (through the SVG's own screen matrix). */
  async function screenPointOf(page: Page, latitude: number, longitude: number): Promise<{ x: number; y: number }> {
    await page.locator("svg.world-map").scrollIntoViewIfNeeded();
    const { x, y } = coordinatesToPoint(latitude, longitude);
    return page.evaluate(`(() => {
      const point = new DOMPoint(${x}, ${y}).matrixTransform(document.querySelector("svg.world-map").getScreenCTM());
      return { x: point.x, y: point.y };
    })()`);
  }

  /** Clicks the map where these coordinates are drawn, as a person would aim at them. */
  async function clickMapAt(page: Page, latitude: number, longitude: number): Promise<void> {
    const { x, y } = await screenPointOf(page, latitude, longitude);
    await page.mouse.click(x, y);
  }

  const field = (page: Page, name: string) => page.locator(`#geocode-result [data-field="${name}"]`).first();
  const alertText = (page: Page) => page.locator("#geocode-error").innerText();

  async function typeAndSubmit(page: Page, query: { latitude: string; longitude: string; platform?: string; language?: string }): Promise<void> {
    await page.getByLabel("Latitude").fill(query.latitude);
    await page.getByLabel("Longitude").fill(query.longitude);
    await page.getByLabel("Provider").selectOption(query.platform ?? "");
    await page.getByLabel(/^Language/).fill(query.language ?? "");
    await page.getByRole("button", { name: "Find the address" }).click();
  }

  /** Problems but the console's note of an HTTP error the test asked for. */
  const unexpected = (problems: string[], ...statuses: number[]) =>
    problems.filter(
      (problem) => !statuses.some((status) => problem.startsWith(`console: Failed to load resource: the server responded with a status of ${status}`)),
    );

  // Side by side, but for the cases that must not be (test.serial, in this order, before the others):
  // those that script or count the one fake Nominatim, the one that reads the clipboard every profile
  // shares, and the first click at Paris, which must be the one that finds it missing from the cache.
  test.serial(
    "a click on the map near Paris fills the coordinates, pins the point and finds France, asked of LOCAL; the same click again comes from level 1",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const asked = page.waitForResponse((response) => response.url().includes("/reverse-geocode?"));
        await clickMapAt(page, paris.latitude, paris.longitude);
        const url = new URL((await asked).url());
        expect(url.searchParams.has("platform")).toBe(false);
        const latitude = Number(await page.getByLabel("Latitude").inputValue());
        const longitude = Number(await page.getByLabel("Longitude").inputValue());
        expect(Math.abs(latitude - paris.latitude)).toBeLessThan(0.5);
        expect(Math.abs(longitude - paris.longitude)).toBeLessThan(0.5);
        expect(url.searchParams.get("latitude")).toBe(String(latitude));
        expect(url.searchParams.get("longitude")).toBe(String(longitude));

        await field(page, "country").waitFor();
        expect(await field(page, "country").innerText()).toBe("France");
        expect(await field(page, "country_code").innerText()).toBe("FR");
        expect(await field(page, "provider").innerText()).toBe("LOCAL");
        expect(await field(page, "cache").innerText()).toBe("asked the provider\nX-Cache: MISS");
        // Every field of the address is shown, a missing one as a dash.
        expect(await page.locator("#geocode-result .address-fields dt code").allInnerTexts()).toEqual([
          "formatted_address",
          "postcode",
          "country",
          "country_code",
          "state",
          "district",
          "settlement",
          "street",
          "house",
        ]);
        expect(await field(page, "postcode").innerText()).toBe("—");
        const pin = page.locator("svg.world-map circle.pin");
        expect(Number(await pin.getAttribute("cx"))).toBeCloseTo(longitude + 180, 5);
        expect(Number(await pin.getAttribute("cy"))).toBeCloseTo(90 - latitude, 5);

        await clickMapAt(page, paris.latitude, paris.longitude);
        await page.locator('#geocode-result [data-field="cache"]', { hasText: "L1" }).waitFor();
        expect(await field(page, "cache").innerText()).toBe("from the recent-answers cache (level 1)\nX-Cache: L1");
        expect(await field(page, "country").innerText()).toBe("France");
        expect(await page.locator("svg.world-map circle.pin").count()).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test.serial(
    "a pair pasted into one field fills both; a pair in degrees typed into one is split when sent; a word is asked to be a number",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const latitude = page.getByLabel("Latitude");
        const longitude = page.getByLabel("Longitude");
        await page.evaluate(`navigator.clipboard.writeText("48.8566, 2.3522")`);
        await latitude.focus();
        await page.keyboard.press("Control+V");
        expect([await latitude.inputValue(), await longitude.inputValue()]).toEqual(["48.8566", "2.3522"]);

        await longitude.fill("");
        await latitude.fill("52°31′12″N 13°24′18″E");
        await page.getByRole("button", { name: "Find the address" }).click();
        await field(page, "settlement").waitFor();
        expect([await latitude.inputValue(), await longitude.inputValue()]).toEqual(["52.52", "13.405"]);
        expect(await field(page, "settlement").innerText()).toBe("Berlin");

        await typeAndSubmit(page, { latitude: "north", longitude: "2" });
        await page.getByRole("alert").filter({ hasText: "Enter a latitude" }).waitFor();
        expect(await alertText(page)).toBe("Enter a latitude as a number, for example 48.8566.");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test.serial(
    "choosing a provider sends platform, and the language goes with it to the provider",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const before = nominatim.requests.length;
        const asked = page.waitForRequest((request) => request.url().includes("/reverse-geocode?"));
        await typeAndSubmit(page, { latitude: "48.86044", longitude: "2.35035", platform: "nominatim", language: "fr" });
        const url = new URL((await asked).url());
        expect(Object.fromEntries(url.searchParams)).toEqual({ latitude: "48.86044", longitude: "2.35035", platform: "nominatim", language: "fr" });
        await field(page, "provider").waitFor();
        expect(await field(page, "provider").innerText()).toBe("NOMINATIM");
        expect(await field(page, "street").innerText()).toBe("Rue Quincampoix");
        expect(await field(page, "postcode").innerText()).toBe("75004");
        expect(await field(page, "cache").innerText()).toBe("asked the provider\nX-Cache: MISS");
        expect(nominatim.requests.length).toBe(before + 1);
        expect(nominatim.requests.at(-1)!.url.searchParams.get("accept-language")).toBe("fr");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test.serial(
    "an address with markup in it, from a provider, is shown as text",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const hostile = JSON.parse(fixtureText(parisFixture));
        hostile.address.road = '<img src="x" onerror="alert(1)">Rue';
        hostile.display_name = "<script>alert(1)</script>";
        nominatim.script(reply.json(hostile));
        page.on("dialog", (dialog) => problems.push(`dialog: ${dialog.message()}`));
        await typeAndSubmit(page, { latitude: "48.1", longitude: "2.1", platform: "nominatim" });
        await field(page, "street").waitFor();
        expect(await field(page, "street").innerText()).toBe('<img src="x" onerror="alert(1)">Rue');
        expect(await field(page, "formatted_address").innerText()).toBe("<script>alert(1)</script>");
        expect(await page.locator("#geocode-result img, #geocode-result script").count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test.serial(
    "when every provider asked fails, each one's reason is given",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        // A 400 is neither retried nor counted against the provider's health.
        nominatim.script(reply.status(400));
        await typeAndSubmit(page, { latitude: "48.2", longitude: "2.2", platform: "nominatim" });
        await page.locator(".provider-failures").waitFor();
        expect(await page.locator("#geocode-error p").innerText()).toBe("No provider could answer:");
        expect(await page.locator(".provider-failures li").allInnerTexts()).toEqual(["NOMINATIM refused the request"]);
        await checkPageState(page, "geocoder-providers-failed");
        expect(unexpected(problems, 502)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  // Last of those that ask Nominatim: it is resting for 30 s afterwards.
  test.serial(
    "a provider that asks us to wait is a rate limit, with the time to wait",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        nominatim.script(reply.status(429, { "retry-after": "30" }));
        await typeAndSubmit(page, { latitude: "48.3", longitude: "2.3", platform: "nominatim" });
        await page.locator(".provider-failures").waitFor();
        expect(await page.locator("#geocode-error p").innerText()).toMatch(/^The providers asked us to wait: try again in (29|30) s\.$/);
        expect(await page.locator(".provider-failures li").allInnerTexts()).toEqual(["NOMINATIM asked us to wait (rate limited)"]);
        expect(unexpected(problems, 429)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "a place searched by name: suggestions as one types, typos forgiven, chosen with the keys; the pin and the address follow",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        // Zoomed in far from Paris first: the place chosen must come into view.
        await page.locator("svg.world-map").waitFor();
        for (const closer of [2, 4, 8]) {
          await page.getByRole("button", { name: "Zoom in" }).click();
          await page.locator("#map-zoom", { hasText: `${closer} times closer` }).waitFor();
        }
        const search = page.getByRole("combobox", { name: "Place" });
        await search.fill("Pairs");
        const suggestions = page.getByRole("listbox", { name: "Places" });
        await suggestions.getByRole("option").first().waitFor();
        expect(await search.getAttribute("aria-expanded")).toBe("true");
        expect(await suggestions.getByRole("option").first().innerText()).toContain("Paris");
        await checkPageState(page, "geocoder-search-open");

        // The arrows move the active suggestion without leaving the field; Enter chooses it.
        await search.press("ArrowDown");
        expect(await search.getAttribute("aria-activedescendant")).toBe("place-option-0");
        expect(await suggestions.getByRole("option").first().getAttribute("aria-selected")).toBe("true");
        await search.press("Enter");
        await page.locator("#place-search-status", { hasText: "Chosen: Paris" }).waitFor();
        expect(await search.getAttribute("aria-expanded")).toBe("false");
        expect(Number(await page.getByLabel("Latitude").inputValue())).toBeCloseTo(48.85, 1);
        await page.locator("#geocode-status", { hasText: /^Found/ }).waitFor();
        expect(await field(page, "settlement").innerText()).toContain("Paris");
        // The map moved to the pin and kept its zoom.
        expect(await page.locator("#map-zoom").innerText()).toBe("8 times closer");
        const [vx, vy, vw, vh] = (await page.locator("svg.world-map").getAttribute("viewBox"))!.split(" ").map(Number);
        const [pinX, pinY] = await page.locator("circle.pin").evaluate((pin) => [Number(pin.getAttribute("cx")), Number(pin.getAttribute("cy"))]);
        expect(pinX! >= vx! && pinX! <= vx! + vw! && pinY! >= vy! && pinY! <= vy! + vh!).toBe(true);

        // Escape closes the list; a name nothing has says so. New suggestions start with none active.
        await search.fill("Springfield");
        await suggestions.getByRole("option").first().waitFor();
        await search.press("ArrowDown");
        await search.press("ArrowDown");
        expect(await search.getAttribute("aria-activedescendant")).toBe("place-option-1");
        await search.pressSequentially(" IL");
        // The new list, not the old one (which has an Illinois Springfield too, lower down).
        await page.locator("#place-option-0", { hasText: "Illinois" }).waitFor();
        expect(await search.getAttribute("aria-activedescendant")).toBeNull();
        await search.press("Escape");
        expect(await suggestions.isHidden()).toBe(true);
        await search.fill("qqqqzzzzxx");
        await page.locator("#place-search-status", { hasText: "No place by that name." }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "lists the registered geocoders and offers each as a provider after the default chain",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const items = page.locator("#geocoder-list li");
        // In the server's order of registration (the default chain's order is its own setting).
        expect(await items.locator(".geocoder-name").allInnerTexts()).toEqual(["NOMINATIM", "LOCAL"]);
        expect(await items.nth(0).locator(".geocoder-url").innerText()).toBe(nominatim.url().toString());
        expect(await items.nth(1).locator(".geocoder-url").innerText()).toContain("GeoNames");
        const options = page.locator("#platform option");
        expect(await options.allInnerTexts()).toEqual(["Default chain", "NOMINATIM", "LOCAL"]);
        expect(await options.evaluateAll((all) => all.map((o) => (o as unknown as { value: string }).value))).toEqual(["", "nominatim", "local"]);
        expect(await page.locator("svg.world-map path.country").count()).toBeGreaterThan(200);
        expect(await page.locator("#geocode-status").innerText()).toMatch(/click the map or enter coordinates/i);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "typed coordinates are looked up on Enter, and the pin moves to them",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        await page.getByLabel("Latitude").fill("52.52");
        await page.getByLabel("Longitude").fill("13.405");
        await page.getByLabel("Longitude").press("Enter");
        await field(page, "country").waitFor();
        expect(await field(page, "country").innerText()).toBe("Germany");
        expect(await field(page, "settlement").innerText()).toBe("Berlin");
        expect(await page.locator("#geocode-status").innerText()).toBe("Found 1 address at 52.52, 13.405.");
        expect(await page.locator("svg.world-map circle.pin").getAttribute("cx")).toBe(String(13.405 + 180));
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "the open sea has no address, and the page says so",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        await typeAndSubmit(page, { latitude: "0", longitude: "-30" });
        await page.locator(".no-address").waitFor();
        expect(await page.locator(".no-address").innerText()).toBe("No address here (open sea or no data)");
        expect(await field(page, "provider").innerText()).toBe("LOCAL");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "an invalid coordinate typed is explained in words and its field marked; an empty one is asked for",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        await typeAndSubmit(page, { latitude: "91", longitude: "2" });
        await page.getByRole("alert").filter({ hasText: "not valid" }).waitFor();
        expect(await alertText(page)).toBe("Those coordinates are not valid: latitude must be between -90 and 90.");
        expect(await page.getByLabel("Latitude").getAttribute("aria-invalid")).toBe("true");
        expect(await page.getByLabel("Longitude").getAttribute("aria-invalid")).toBeNull();
        expect(await page.locator("#geocode-result").innerText()).toBe("");

        await typeAndSubmit(page, { latitude: "48", longitude: "" });
        await page.getByRole("alert").filter({ hasText: "Enter a longitude" }).waitFor();
        expect(await alertText(page)).toBe("Enter a longitude as a number, for example 2.3522.");
        expect(await page.getByLabel("Longitude").getAttribute("aria-invalid")).toBe("true");
        expect(await page.getByLabel("Latitude").getAttribute("aria-invalid")).toBeNull();

        await typeAndSubmit(page, { latitude: "48", longitude: "2", language: "<b>fr" });
        await page.getByRole("alert").filter({ hasText: "language" }).waitFor();
        expect(await alertText(page)).toBe("That request is not valid: language must be a language tag such as en, de or pt-BR.");
        expect(await page.getByLabel(/^Language/).getAttribute("aria-invalid")).toBe("true");
        expect(unexpected(problems, 400)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "zoomed in by the wheel about the cursor, a click aimed at Paris lands within 3 km; a drag pans without looking anything up",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const lookups: string[] = [];
        page.on("request", (request) => {
          if (request.url().includes("/reverse-geocode?")) lookups.push(request.url());
        });
        // The wheel over Paris: Paris stays under the cursor while the map comes closer.
        for (let i = 0; i < 5; i++) {
          const at = await screenPointOf(page, paris.latitude, paris.longitude);
          await page.mouse.move(at.x, at.y);
          await page.mouse.wheel(0, -300);
          await page.locator("#map-zoom", { hasText: `${2 ** (i + 1)} times closer` }).waitFor();
          const still = await screenPointOf(page, paris.latitude, paris.longitude);
          expect(Math.hypot(still.x - at.x, still.y - at.y)).toBeLessThan(1);
        }
        await checkPageState(page, "geocoder-zoomed");
        await clickMapAt(page, paris.latitude, paris.longitude);
        await field(page, "country").waitFor();
        const latitude = Number(await page.getByLabel("Latitude").inputValue());
        const longitude = Number(await page.getByLabel("Longitude").inputValue());
        // 0.03° is about 3 km: at the whole world's size a pixel alone was 70 km.
        expect(Math.abs(latitude - paris.latitude)).toBeLessThan(0.03);
        expect(Math.abs(longitude - paris.longitude)).toBeLessThan(0.03);
        expect(await field(page, "country").innerText()).toBe("France");

        // A drag moves the map by as much as the mouse moved, and asks nothing.
        const asked = lookups.length;
        const before = await screenPointOf(page, paris.latitude, paris.longitude);
        await page.mouse.move(before.x, before.y);
        await page.mouse.down();
        await page.mouse.move(before.x + 60, before.y + 40, { steps: 5 });
        await page.mouse.up();
        const after = await screenPointOf(page, paris.latitude, paris.longitude);
        expect(after.x - before.x).toBeCloseTo(60, 0);
        expect(after.y - before.y).toBeCloseTo(40, 0);
        expect(lookups.length).toBe(asked);

        await page.getByRole("button", { name: "Whole world" }).click();
        await page.locator("#map-zoom", { hasText: "The whole world" }).waitFor();
        expect(await page.locator("svg.world-map").getAttribute("viewBox")).toBe("0 0 360 180");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "the map works from the keyboard: Tab reaches it after the navigation and the search, + zooms, arrows move, Enter looks up the centre",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API docs" }).focus();
        await page.keyboard.press("Tab");
        await page.keyboard.press("Tab");
        const search = page.getByRole("combobox", { name: "Place" });
        expect(await search.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
        await page.keyboard.press("Tab");
        const map = page.getByRole("application", { name: "World map" });
        expect(await map.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
        expect(await map.getAttribute("aria-roledescription")).toBe("map");

        for (const key of ["+", "+", "+"]) await page.keyboard.press(key);
        await page.locator("#map-zoom", { hasText: "8 times closer" }).waitFor();
        const centred = await page.locator("svg.world-map").getAttribute("viewBox");
        await page.keyboard.press("ArrowRight");
        const [x0] = centred!.split(" ").map(Number);
        const [x1, , width] = (await page.locator("svg.world-map").getAttribute("viewBox"))!.split(" ").map(Number);
        expect(x1! - x0!).toBeCloseTo(width! * 0.1, 3);
        await checkPageState(page, "geocoder-map-focused");

        // Enter looks up the point under the crosshair: the view's centre.
        await map.focus();
        const asked = page.waitForResponse((response) => response.url().includes("/reverse-geocode?"));
        await page.keyboard.press("Enter");
        await asked;
        const [vx, vy, vw, vh] = (await page.locator("svg.world-map").getAttribute("viewBox"))!.split(" ").map(Number);
        expect(Number(await page.getByLabel("Longitude").inputValue())).toBeCloseTo(vx! + vw! / 2 - 180, 4);
        expect(Number(await page.getByLabel("Latitude").inputValue())).toBeCloseTo(90 - (vy! + vh! / 2), 4);

        await page.keyboard.press("0");
        await page.locator("#map-zoom", { hasText: "The whole world" }).waitFor();
        await page.keyboard.press("Tab");
        expect(await page.evaluate("document.activeElement.id")).toBe("map-zoom-in");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "many points: pasted lines and a CSV file are looked up in batches, shown in a table and as dots, and downloaded as CSV and GeoJSON",
    async () => {
      const { page, context, problems } = await openPlayground();
      try {
        const batches: string[] = [];
        page.on("request", (request) => {
          if (request.url().includes("/reverse-geocode/batch")) batches.push(`${request.method()} ${new URL(request.url()).search}`);
        });
        const panel = page.locator("#many-panel");
        await panel.getByLabel("Points, one a line").fill("48.8566, 2.3522\nnorth\n52.52 13.405\n35.6762, 139.6503");
        await panel.getByRole("button", { name: "Look up every point" }).click();
        await panel.getByRole("status").filter({ hasText: "3 points looked up: 3 with an address, 0 with an error." }).waitFor();
        expect(await panel.locator("#many-problems li").allInnerTexts()).toEqual(["Left out: line 2: not a pair of coordinates"]);
        expect(batches).toEqual(["POST ?format=geojson"]);
        expect(await panel.locator("#many-rows tr").count()).toBe(3);
        expect(await panel.locator("#many-rows tr").first().innerText()).toContain("France");
        expect(await page.locator("svg.world-map g.points circle.point").count()).toBe(3);
        expect(await page.locator("#many-progress").evaluate((bar) => (bar as unknown as { value: number }).value)).toBe(3);
        await checkPageState(page, "geocoder-many-points");

        const [csv] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download CSV" }).click()]);
        expect(csv.suggestedFilename()).toBe("addresses.csv");
        const csvLines = (await downloaded(csv)).toString("utf8").split("\r\n");
        expect(csvLines[0]).toBe("line,input,formatted_address,postcode,country,country_code,state,district,settlement,street,house,provider,error");
        expect(csvLines[3]).toContain(",JP,");
        const [geojson] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download GeoJSON" }).click()]);
        const collection = JSON.parse((await downloaded(geojson)).toString("utf8")) as { type: string; features: Array<{ properties: { id: number } }> };
        expect(collection.type).toBe("FeatureCollection");
        expect(collection.features.map((feature) => feature.properties.id)).toEqual([0, 1, 2]);

        // A CSV file wins over the lines; one without the columns is refused on its field.
        await panel
          .getByLabel("Or a CSV file")
          .setInputFiles({ name: "stores.csv", mimeType: "text/csv", buffer: Buffer.from("store,lat,lng\nVienna,48.2082,16.3738\n") });
        await panel.getByRole("button", { name: "Look up every point" }).click();
        await panel.getByRole("status").filter({ hasText: "1 point looked up: 1 with an address" }).waitFor();
        expect(await page.locator("svg.world-map g.points circle.point").count()).toBe(1);
        await panel.getByLabel("Or a CSV file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("store,x,y\nA,1,2\n") });
        await panel.getByRole("button", { name: "Look up every point" }).click();
        await panel.locator("#many-file-error", { hasText: "This file cannot be read: the header has no latitude column" }).waitFor();
        expect(await panel.getByLabel("Or a CSV file").getAttribute("aria-invalid")).toBe("true");
        expect(batches).toHaveLength(2);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "the map is put in the page as SVG shapes only: a script or handler in the file would be dropped",
    async () => {
      const { page, context, problems } = await browser.open(`${stack.url}/app/geocoder`);
      try {
        await page.route(/\/app\/assets\/world-map-[a-z0-9]+\.svg$/, (route) =>
          route.fulfill({
            contentType: "image/svg+xml",
            body: `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 360 180" onload="alert(1)">
<script>alert(2)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
<a xlink:href="javascript:alert(3)"><path d="M0 0h10v10z"/></a><use href="#x"/><style>path{fill:red}</style>
<g><path class="country" data-country="FR" d="M180 40h5v5z" onclick="alert(4)" style="fill:red"><title>France</title></path></g></svg>`,
          }),
        );
        page.on("dialog", (dialog) => problems.push(`dialog: ${dialog.message()}`));
        await page.reload();
        await page.locator("svg.world-map path.country").waitFor();
        const markup = await page.locator("#world-map").innerHTML();
        expect(markup).toBe(
          '<svg viewBox="0 0 360 180" class="world-map" aria-hidden="true" focusable="false"><g><path class="country" data-country="FR" d="M180 40h5v5z"><title>France</title></path></g><g class="points"></g></svg>',
        );
        // Parsing the file already meets the page's CSP: Chromium refuses the handlers and the
        // style in the parsed document (and says so in the console) before the copy drops them.
        expect(
          problems.filter((problem) => !/violates the following Content Security Policy directive .* The action has been blocked\.$/.test(problem)),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "the empty page, a result and an error pass axe and fit both widths, in light and dark; a phone sees the answer where it tapped",
    async () => {
      const { page, context, problems } = await openPlayground("phone");
      try {
        await checkPageState(page, "geocoder-empty");

        await page.setViewportSize(viewports.phone);
        await clickMapAt(page, paris.latitude, paris.longitude);
        await field(page, "country").waitFor();
        expect(await field(page, "country").innerText()).toBe("France");
        // The answer is in sight of whoever tapped the map, however narrow the screen.
        expect(await page.evaluate('document.getElementById("result-panel").getBoundingClientRect().top < innerHeight')).toBe(true);
        await checkPageState(page, "geocoder-result");
        await page.emulateMedia({ colorScheme: "dark" });
        await checkPageState(page, "geocoder-result-dark");
        await page.emulateMedia({ colorScheme: "light" });

        await typeAndSubmit(page, { latitude: "-91.5", longitude: "200" });
        await page.getByRole("alert").filter({ hasText: "not valid" }).waitFor();
        await checkPageState(page, "geocoder-error");

        await typeAndSubmit(page, { latitude: "0", longitude: "-30" });
        await page.locator(".no-address").waitFor();
        await checkPageState(page, "geocoder-no-address");
        expect(unexpected(problems, 400)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});

describe("the geocoder's answers in words", () => {
  test.each([
    ["L1", "from the recent-answers cache (level 1)"],
    ["L2", "from the long-term cache (level 2)"],
    ["MISS", "asked the provider"],
    [null, "not said"],
  ])("X-Cache %p is %p", (header, words) => {
    expect(cacheLevelWords(header)).toBe(words);
  });

  const errors: Array<[situation: string, error: GeocodeErrorLike, words: GeocodeErrorWords]> = [
    [
      "coordinates out of range",
      { status: 400, code: "invalid_coordinates", message: "longitude must be between -180 and 180" },
      { message: "Those coordinates are not valid: longitude must be between -180 and 180.", providers: [], field: "longitude" },
    ],
    [
      "a provider no longer registered",
      { status: 400, code: "unknown_platform", message: 'platform "here" is not a registered geocoder (registered: local)' },
      { message: "That provider is not registered on this server (any more). Reload the page to see the ones that are.", providers: [], field: "platform" },
    ],
    [
      "every provider failed, an unknown reason and junk among them",
      {
        status: 502,
        code: "providers_failed",
        message: "every provider failed (…)",
        details: {
          providers: [{ name: "NOMINATIM", reason: "timeout" }, { name: "HERE", reason: "unauthorized" }, { name: "X", reason: "new_reason" }, "junk"],
        },
      },
      { message: "No provider could answer:", providers: ["NOMINATIM did not answer in time", "HERE refused the server's key", "X failed (new_reason)"] },
    ],
    [
      "no provider configured",
      { status: 503, code: "no_providers", message: "no geocoding provider is configured: set …" },
      { message: "This server has no geocoding provider configured, so it cannot look up addresses. Its operator can set one up.", providers: [] },
    ],
    [
      "the gateway's own rate limit",
      { status: 429, code: "rate_limited", message: "Too many requests: try again in 12 s." },
      { message: "Too many requests: try again in 12 s.", providers: [] },
    ],
    [
      "the geocoder service too slow",
      { status: 504, code: "upstream_timeout", message: "the geocoder did not answer in time" },
      { message: "The geocoder service is not answering right now. Try again in a moment.", providers: [] },
    ],
  ];
  test.each(errors)("%s", (_situation, error, words) => {
    expect(geocodeErrorWords(error)).toEqual(words);
  });
});
