import type { Coordinates } from "../../world-map.ts";
import { ApiError } from "../../client/lib/api.ts";
import { callResponse, queryString, type QueryParams } from "../../client/lib/api-call.ts";
import { coordinatePairOf } from "../../client/lib/coordinate-pair.ts";
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { geocodeErrorWords, type Address } from "../../client/lib/geocode-words.ts";
import { mount as mountMap, type WorldMapView } from "../geocoder-map/script.ts";
import type { Geocoder } from "../geocoder-list/script.ts";
import { addressResult } from "./address-result.ts";
import { pointLookupParts } from "./parts.ts";

/**
 * The geocoder playground's lookup: coordinates from the form or a click on
 * the map, `GET /reverse-geocode` with the chosen provider, and every field
 * of every address, with the provider that answered and the cache level it
 * came from.
 */
export interface PointLookup {
  map: WorldMapView;
  /** The provider and language chosen in the form ("": the default chain, no language). */
  choice(): { platform: string; language: string };
  /** Offers these geocoders in the provider list, keeping the one chosen. */
  offerPlatforms(geocoders: readonly Geocoder[]): void;
  /** Looks up the address at a point chosen elsewhere (a place searched by name): the pin, the fields, the answer. */
  lookAt(coordinates: Coordinates): void;
}

/** What is asked: the fields' text as typed, sent as it is (the server is the judge of coordinates). */
type Query = { latitude: string; longitude: string; platform: string; language: string };
type Parts = FoundParts<typeof pointLookupParts.spec>;
/** The fields an answer's error may be about, marked invalid until the next lookup. */
type CheckedField = "latitude" | "longitude" | "platform" | "language";

export function mount(root: HTMLElement): PointLookup {
  const parts = findParts(root, pointLookupParts);
  const lookUp = lookUpInto(parts, () => map);
  const map = mountMap(parts.map, {
    onPick: (picked) => {
      fillBoth(parts, picked);
      void lookUp(queryOf(parts), { fromMap: true });
    },
  });
  parts.form.addEventListener("submit", (event) => {
    event.preventDefault();
    // Both typed into one field (48.8566, 2.3522 or 48°51′24″N 2°21′08″E): each to its own.
    for (const input of [parts.latitude, parts.longitude]) fillBoth(parts, coordinatePairOf(input.value));
    void lookUp(queryOf(parts));
  });
  // A pair pasted into either field fills both, rather than becoming one number or none.
  for (const input of [parts.latitude, parts.longitude]) {
    input.addEventListener("paste", (event) => {
      const pair = coordinatePairOf(event.clipboardData?.getData("text") ?? "");
      if (!pair) return;
      event.preventDefault();
      fillBoth(parts, pair);
    });
  }
  return {
    map,
    choice: () => ({ platform: parts.platform.value, language: parts.language.value.trim() }),
    offerPlatforms: (geocoders) => offerPlatforms(parts.platform, geocoders),
    lookAt: (coordinates) => {
      fillBoth(parts, coordinates);
      void lookUp(queryOf(parts), { fromMap: true });
    },
  };
}

function fillBoth(parts: Parts, pair: Coordinates | null): void {
  if (!pair) return;
  parts.latitude.value = String(pair.latitude);
  parts.longitude.value = String(pair.longitude);
}

function queryOf(parts: Parts): Query {
  // A typographic minus (−, as maps print it) is the ASCII one the API reads.
  const number = (input: HTMLInputElement) => input.value.trim().replace(/^−/, "-");
  return { latitude: number(parts.latitude), longitude: number(parts.longitude), platform: parts.platform.value, language: parts.language.value.trim() };
}

/** The lookup of the page: each one cancels the one still under way. */
function lookUpInto(parts: Parts, map: () => WorldMapView) {
  let inFlight: AbortController | null = null;
  return async (query: Query, { fromMap = false } = {}): Promise<void> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    clearError(parts);
    try {
      if (!checked(parts, query)) return;
      const coordinates = inRange(query);
      if (coordinates) map().placePin(coordinates);
      else map().removePin();
      const answered = await ask(parts, query, controller.signal);
      // On a phone the answer is below the form, out of sight of the map just tapped.
      if (answered && fromMap && parts.resultPanel.getBoundingClientRect().top > innerHeight) parts.resultPanel.scrollIntoView({ block: "start" });
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  };
}

/** Empty, or text that is not a number: says so before asking; true when both coordinates are numbers. */
function checked(parts: Parts, query: Query): boolean {
  const missing = (["latitude", "longitude"] as const).find((field) => query[field] === "" || !Number.isFinite(Number(query[field])));
  if (!missing) return true;
  showError(parts, `Enter a ${missing} as a number, for example ${missing === "latitude" ? "48.8566" : "2.3522"}.`, [], missing);
  fill(parts.status, "");
  fill(parts.result);
  return false;
}

/** Asks, and shows the addresses found or why there are none; true when an answer is shown (not aborted, no error). */
async function ask(parts: Parts, query: Query, signal: AbortSignal): Promise<boolean> {
  const sent: QueryParams<"GET /reverse-geocode"> = {
    latitude: query.latitude,
    longitude: query.longitude,
    platform: query.platform || undefined,
    language: query.language || undefined,
  };
  const where = `${query.latitude}, ${query.longitude}`;
  fill(parts.status, `Looking up ${where}…`);
  fill(parts.result);
  try {
    const { body, headers } = await callResponse("GET /reverse-geocode", { query: sent, signal });
    if (signal.aborted) return false;
    // The answer is the server's: anything but a list of addresses is none.
    const data: unknown = body && "data" in body ? body.data : undefined;
    const addresses = Array.isArray(data) ? (data as Address[]) : [];
    const found = addresses.length === 1 ? "1 address" : `${addresses.length} addresses`;
    fill(parts.status, addresses.length === 0 ? `No address at ${where}.` : `Found ${found} at ${where}.`);
    fill(parts.result, ...addressResult(`GET /reverse-geocode${queryString(sent)}`, headers, addresses));
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    fill(parts.status, "");
    const words = geocodeErrorWords(
      error instanceof ApiError ? error : new ApiError(0, "unknown", "Something went wrong in this page. Reload it and try again."),
    );
    showError(parts, words.message, words.providers, words.field);
    return false;
  }
}

/** The typed coordinates as numbers, when both are on the map; else null (the server will say what is wrong). */
function inRange(query: Query): Coordinates | null {
  const latitude = Number(query.latitude);
  const longitude = Number(query.longitude);
  const ok = Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
  return ok ? { latitude, longitude } : null;
}

function showError(parts: Parts, message: string, providers: readonly string[], field?: CheckedField): void {
  const list = providers.length > 0 ? h("ul", { class: "provider-failures" }, ...providers.map((line) => h("li", {}, line))) : null;
  fill(parts.error, h("p", {}, message), list);
  if (field) parts[field].setAttribute("aria-invalid", "true");
}

function clearError(parts: Parts): void {
  fill(parts.error);
  for (const field of ["latitude", "longitude", "platform", "language"] as const) parts[field].removeAttribute("aria-invalid");
}

function offerPlatforms(select: HTMLSelectElement, geocoders: readonly Geocoder[]): void {
  const chosen = select.value;
  fill(
    select,
    h("option", { value: "" }, "Default chain"),
    geocoders.map((g) => h("option", { value: g.name.toLowerCase() }, g.name)),
  );
  select.value = chosen;
}
