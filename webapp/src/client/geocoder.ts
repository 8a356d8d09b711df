import type { Coordinates } from "../world-map.ts";
import { api, ApiError, apiResponse } from "./lib/api.ts";
import { coordinatePairOf } from "./lib/coordinate-pair.ts";
import { byId, fill, h } from "./lib/dom.ts";
import { addressFields, cacheLevelWords, geocodeErrorWords, type Address } from "./lib/geocode-words.ts";
import { manyPointsPanel } from "./lib/many-points-panel.ts";
import { loadWorldMap, showMapUnavailable, type WorldMapView } from "./lib/world-map-view.ts";

/**
 * The geocoder playground: coordinates from the form or a click on the map,
 * `GET /reverse-geocode` with the chosen provider, and every field of every
 * address, with the provider that answered and the cache level it came from.
 */

interface Geocoder {
  name: string;
  url: string;
}

interface ReverseGeocodeBody {
  data: Address[];
}

/** What is asked: the fields' text as typed, sent as it is (the server is the judge of coordinates). */
interface Query {
  latitude: string;
  longitude: string;
  platform: string;
  language: string;
}

const form = byId<HTMLFormElement>("geocode-form");
const latitudeInput = byId<HTMLInputElement>("latitude");
const longitudeInput = byId<HTMLInputElement>("longitude");
const platformSelect = byId<HTMLSelectElement>("platform");
const languageInput = byId<HTMLInputElement>("language");
const status = byId("geocode-status");
const errorBox = byId("geocode-error");
const result = byId("geocode-result");
const resultPanel = byId("result-panel");
const mapContainer = byId("world-map");
const checkedFields = { latitude: latitudeInput, longitude: longitudeInput, language: languageInput, platform: platformSelect };

let map: WorldMapView | null = null;
let inFlight: AbortController | null = null;

form.addEventListener("submit", (event) => {
  event.preventDefault();
  // Both typed into one field (48.8566, 2.3522 or 48°51′24″N 2°21′08″E): each to its own.
  for (const input of [latitudeInput, longitudeInput]) fillBoth(coordinatePairOf(input.value));
  void lookUp(queryFromForm());
});

// A pair pasted into either field fills both, rather than becoming one number or none.
for (const input of [latitudeInput, longitudeInput]) {
  input.addEventListener("paste", (event) => {
    const pair = coordinatePairOf(event.clipboardData?.getData("text") ?? "");
    if (!pair) return;
    event.preventDefault();
    fillBoth(pair);
  });
}

function fillBoth(pair: Coordinates | null): void {
  if (!pair) return;
  latitudeInput.value = String(pair.latitude);
  longitudeInput.value = String(pair.longitude);
}

void loadGeocoders();
void loadMap();
manyPointsPanel({ map: () => map, platform: () => platformSelect.value, language: () => languageInput.value.trim() });

function queryFromForm(): Query {
  // A typographic minus (−, as maps print it) is the ASCII one the API reads.
  const number = (input: HTMLInputElement) => input.value.trim().replace(/^−/, "-");
  return { latitude: number(latitudeInput), longitude: number(longitudeInput), platform: platformSelect.value, language: languageInput.value.trim() };
}

async function loadMap(): Promise<void> {
  const url = mapContainer.dataset.mapUrl;
  try {
    if (!url) throw new Error("the page names no map");
    map = await loadWorldMap(mapContainer, url, (picked) => {
      latitudeInput.value = String(picked.latitude);
      longitudeInput.value = String(picked.longitude);
      void lookUp(queryFromForm(), { fromMap: true });
    });
  } catch {
    showMapUnavailable(mapContainer);
  }
}

async function lookUp(query: Query, { fromMap = false } = {}): Promise<void> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  clearError();

  // Empty, or text that is not a number: say so before asking.
  const missing = (["latitude", "longitude"] as const).find((field) => query[field] === "" || !Number.isFinite(Number(query[field])));
  if (missing) {
    showError(`Enter a ${missing} as a number, for example ${missing === "latitude" ? "48.8566" : "2.3522"}.`, [], missing);
    fill(status, "");
    fill(result);
    return;
  }

  const coordinates = inRange(query);
  if (coordinates) map?.placePin(coordinates);
  else map?.removePin();
  const params = new URLSearchParams({ latitude: query.latitude, longitude: query.longitude });
  if (query.platform) params.set("platform", query.platform);
  if (query.language) params.set("language", query.language);
  const path = `/reverse-geocode?${params}`;

  fill(status, `Looking up ${query.latitude}, ${query.longitude}…`);
  fill(result);
  try {
    const response = await apiResponse<ReverseGeocodeBody>(path, { signal: controller.signal });
    if (controller.signal.aborted) return;
    const addresses = Array.isArray(response.body?.data) ? response.body.data : [];
    fill(
      status,
      addresses.length === 0
        ? `No address at ${query.latitude}, ${query.longitude}.`
        : `Found ${addresses.length === 1 ? "1 address" : `${addresses.length} addresses`} at ${query.latitude}, ${query.longitude}.`,
    );
    renderResult(path, response.headers, addresses);
    // On a phone the answer is below the form, out of sight of the map just tapped.
    if (fromMap && resultPanel.getBoundingClientRect().top > innerHeight) resultPanel.scrollIntoView({ block: "start" });
  } catch (error) {
    if (controller.signal.aborted) return;
    fill(status, "");
    const words = geocodeErrorWords(
      error instanceof ApiError ? error : new ApiError(0, "unknown", "Something went wrong in this page. Reload it and try again."),
    );
    showError(words.message, words.providers, words.field);
  } finally {
    if (inFlight === controller) inFlight = null;
  }
}

function renderResult(path: string, headers: Headers, addresses: Address[]): void {
  const provider = headers.get("x-geocoder-provider");
  const cache = headers.get("x-cache");
  const source = h(
    "dl",
    { class: "stats answer-source" },
    h("div", { class: "stat" }, h("dt", {}, "Answered by"), h("dd", { "data-field": "provider" }, provider ?? "—")),
    h(
      "div",
      { class: "stat" },
      h("dt", {}, "Cache"),
      h("dd", { "data-field": "cache" }, cacheLevelWords(cache), " ", h("code", { class: "cache-header" }, `X-Cache: ${cache ?? "—"}`)),
    ),
  );
  const request = h("p", { class: "request small muted" }, "Request: ", h("code", {}, `GET ${path}`));
  if (addresses.length === 0) {
    fill(result, source, h("p", { class: "message no-address" }, "No address here (open sea or no data)"), request);
    return;
  }
  fill(
    result,
    source,
    addresses.map((address, i) =>
      h(
        "section",
        { class: "address", "aria-label": `Address ${i + 1} of ${addresses.length}` },
        addresses.length > 1 ? h("h3", {}, `Address ${i + 1} of ${addresses.length}`) : null,
        h(
          "dl",
          { class: "address-fields" },
          addressFields.map(({ key, label }) => {
            const value = address?.[key];
            return h(
              "div",
              {},
              h("dt", {}, label, " ", h("code", {}, key)),
              h(
                "dd",
                { "data-field": key, class: value === null || value === undefined ? "none" : null },
                value === null || value === undefined ? "—" : String(value),
              ),
            );
          }),
        ),
      ),
    ),
    request,
  );
}

async function loadGeocoders(): Promise<void> {
  const list = byId("geocoder-list");
  const listError = byId("geocoders-error");
  try {
    const { geocoders } = await api<{ geocoders: Geocoder[] }>("/geocoders");
    const valid = (Array.isArray(geocoders) ? geocoders : []).filter((g) => typeof g?.name === "string" && typeof g.url === "string");
    fill(
      list,
      valid.length === 0
        ? h("li", { class: "muted" }, "None: this server has no geocoding provider configured.")
        : valid.map((g) => h("li", {}, h("strong", { class: "geocoder-name" }, g.name), h("code", { class: "geocoder-url" }, g.url))),
    );
    const chosen = platformSelect.value;
    fill(
      platformSelect,
      h("option", { value: "" }, "Default chain"),
      valid.map((g) => h("option", { value: g.name.toLowerCase() }, g.name)),
    );
    platformSelect.value = chosen;
  } catch (error) {
    fill(list);
    fill(listError, `The list of geocoders could not be loaded: ${error instanceof Error ? error.message : "unknown error"}`);
  } finally {
    list.removeAttribute("aria-busy");
  }
}

/** The typed coordinates as numbers, when both are on the map; else null (the server will say what is wrong). */
function inRange(query: Query): Coordinates | null {
  const latitude = Number(query.latitude);
  const longitude = Number(query.longitude);
  const ok = Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
  return ok ? { latitude, longitude } : null;
}

function showError(message: string, providers: string[], field?: keyof typeof checkedFields): void {
  fill(
    errorBox,
    h("p", {}, message),
    providers.length > 0
      ? h(
          "ul",
          { class: "provider-failures" },
          providers.map((line) => h("li", {}, line)),
        )
      : null,
  );
  if (field) checkedFields[field].setAttribute("aria-invalid", "true");
}

function clearError(): void {
  fill(errorBox);
  for (const field of Object.values(checkedFields)) field.removeAttribute("aria-invalid");
}
