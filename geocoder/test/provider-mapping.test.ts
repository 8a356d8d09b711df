import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { providerFixturesDir } from "@linkgeo/testing";
import { cleanField, completeAddress, formatAddress, type AddressParts } from "../src/addresses/address-fields.ts";
import { firstField, readField } from "../src/providers/provider-record.ts";
import type { Address } from "../src/addresses/address.ts";
import { englishCountryName, resolveCountry, toAlpha2CountryCode } from "../src/addresses/country.ts";
import {
  buildGeoapifyForwardRequest,
  buildGeoapifyRequest,
  geoapifyReverseUrl,
  geoapifySearchUrl,
  mapGeoapifyForwardPayload,
  mapGeoapifyPayload,
} from "../src/providers/geoapify.ts";
import { buildHereForwardRequest, buildHereRequest, hereGeocodeUrl, hereRevgeocodeUrl, mapHereForwardPayload, mapHerePayload } from "../src/providers/here.ts";
import {
  buildNominatimForwardRequest,
  buildNominatimRequest,
  mapNominatimForwardPayload,
  mapNominatimPayload,
  nominatimReverseUrl,
  nominatimSearchUrl,
} from "../src/providers/nominatim.ts";
import { type ForwardPlace, siblingEndpoint } from "../src/providers/forward-query.ts";
import { UnexpectedPayload } from "../src/providers/provider-error.ts";

const fixtures = providerFixturesDir;

async function fixture(file: string): Promise<unknown> {
  return Bun.file(join(fixtures, file)).json();
}

/** A fixture and the addresses its body must map to, whole. */
type MappingCase = [file: string, expected: Address[]];

const whiteHouseTennessee: Address = {
  formatted_address: "White House, TN 37188, United States of America",
  postcode: "37188",
  country: "United States",
  country_code: "US",
  state: "Tennessee",
  district: null,
  settlement: "White House",
  street: null,
  house: null,
};

const geoapifyCases: MappingCase[] = [
  ["geoapify-01-white-house-tn-us-geojson.json", [whiteHouseTennessee]],
  ["geoapify-02-white-house-tn-us-json.json", [whiteHouseTennessee]],
  [
    "geoapify-03-berlin-prenzlauer-berg-de-building-json-lang-de.json",
    [
      {
        formatted_address: "Kastanienallee 77, 10435 Berlin, Deutschland",
        postcode: "10435",
        country: "Deutschland",
        country_code: "DE",
        state: "Berlin",
        district: "Pankow",
        settlement: "Berlin",
        street: "Kastanienallee",
        house: "77",
      },
    ],
  ],
  [
    "geoapify-04-paris-fontaine-stravinsky-fr-amenity-without-housenumber-geojson.json",
    [
      {
        formatted_address: "Fontaine Stravinsky, Place Igor Stravinsky, 75004 Paris, France",
        postcode: "75004",
        country: "France",
        country_code: "FR",
        state: "Île-de-France",
        district: "Paris 4e Arrondissement",
        settlement: "Paris",
        street: "Place Igor Stravinsky",
        house: "Fontaine Stravinsky",
      },
    ],
  ],
  [
    "geoapify-05-singapore-marina-bay-sands-sg-amenity-with-housenumber-json.json",
    [
      {
        formatted_address: "Marina Bay Sands, 10 Bayfront Avenue, Singapore 018956, Singapore",
        postcode: "018956",
        country: "Singapore",
        country_code: "SG",
        state: null,
        district: "Downtown Core",
        settlement: "Singapore",
        street: "Bayfront Avenue",
        house: "10",
      },
    ],
  ],
  [
    "geoapify-06-gordes-fr-village-street-result-json.json",
    [
      {
        formatted_address: "Route de Murs, 84220 Gordes, France",
        postcode: "84220",
        country: "France",
        country_code: "FR",
        state: "Provence-Alpes-Côte d'Azur",
        district: null,
        settlement: "Gordes",
        street: "Route de Murs",
        house: null,
      },
    ],
  ],
  [
    "geoapify-07-seathwaite-gb-hamlet-json.json",
    [
      {
        formatted_address: "Seathwaite, CA12 5XJ, United Kingdom",
        postcode: "CA12 5XJ",
        country: "United Kingdom",
        country_code: "GB",
        state: "England",
        district: null,
        settlement: "Seathwaite",
        street: null,
        house: null,
      },
    ],
  ],
  [
    "geoapify-08-vienna-at-three-features-polygon-geometries-geojson.json",
    [
      {
        formatted_address: "Heinestraße 42, 1020 Vienna, Austria",
        postcode: "1020",
        country: "Austria",
        country_code: "AT",
        state: "Vienna",
        district: "Leopoldstadt",
        settlement: "Vienna",
        street: "Heinestraße",
        house: "42",
      },
      {
        formatted_address: "Leopoldstadt, 1020 Vienna, Austria",
        postcode: "1020",
        country: "Austria",
        country_code: "AT",
        state: "Vienna",
        district: "Leopoldstadt",
        settlement: "Vienna",
        street: null,
        house: null,
      },
      {
        formatted_address: "Vienna, Austria",
        postcode: null,
        country: "Austria",
        country_code: "AT",
        state: "Vienna",
        district: null,
        settlement: "Vienna",
        street: null,
        house: null,
      },
    ],
  ],
  [
    "geoapify-09-nashville-tn-us-numbers-as-numbers-json.json",
    [
      {
        formatted_address: "501 Broadway, Nashville, TN 37203, United States of America",
        postcode: "37203",
        country: "United States",
        country_code: "US",
        state: "Tennessee",
        district: "Downtown",
        settlement: "Nashville",
        street: "Broadway",
        house: "501",
      },
    ],
  ],
  ["geoapify-10-south-pacific-no-results-json.json", []],
  ["geoapify-11-south-pacific-no-results-geojson.json", []],
  [
    "geoapify-12-locronan-fr-blank-fields-and-empty-result-json.json",
    [
      {
        formatted_address: "Rue Moal, Locronan, 29180, Bretagne, France",
        postcode: "29180",
        country: "France",
        country_code: "FR",
        state: "Bretagne",
        district: null,
        settlement: "Locronan",
        street: "Rue Moal",
        house: null,
      },
    ],
  ],
];

const london = { country: "United Kingdom", country_code: "GB", state: "England", district: "Westminster", settlement: "London" };

const hereCases: MappingCase[] = [
  [
    "here-01-vienna-at-official-docs.json",
    [
      {
        formatted_address: "Heinestraße 42, 1020 Vienna, Austria",
        postcode: "1020",
        country: "Austria",
        country_code: "AT",
        state: "Vienna",
        district: "2. Bezirk-Leopoldstadt",
        settlement: "Vienna",
        street: "Heinestraße",
        house: "42",
      },
    ],
  ],
  [
    "here-02-vienna-cafe-central-at-place-with-housenumber-lang-de.json",
    [
      {
        formatted_address: "Café Central, Herrengasse 14, 1010 Wien, Österreich",
        postcode: "1010",
        country: "Österreich",
        country_code: "AT",
        state: "Wien",
        district: "1. Bezirk-Innere Stadt",
        settlement: "Wien",
        street: "Herrengasse",
        house: "14",
      },
    ],
  ],
  ["here-03-tasman-sea-no-result.json", []],
  [
    "here-04-berlin-brandenburger-tor-de-place-without-housenumber.json",
    [
      {
        formatted_address: "Brandenburger Tor, Pariser Platz, 10117 Berlin, Deutschland",
        postcode: "10117",
        country: "Deutschland",
        country_code: "DE",
        state: "Berlin",
        district: "Mitte",
        settlement: "Berlin",
        street: "Pariser Platz",
        house: "Brandenburger Tor",
      },
    ],
  ],
  [
    "here-05-barcelona-es-street.json",
    [
      {
        formatted_address: "Carrer de Mallorca, 08013 Barcelona (Barcelona), España",
        postcode: "08013",
        country: "España",
        country_code: "ES",
        state: "Cataluña",
        district: "Sagrada Família",
        settlement: "Barcelona",
        street: "Carrer de Mallorca",
        house: null,
      },
    ],
  ],
  [
    "here-06-hallstatt-at-village-house-number.json",
    [
      {
        formatted_address: "Seestraße 104, 4830 Hallstatt, Österreich",
        postcode: "4830",
        country: "Österreich",
        country_code: "AT",
        state: "Oberösterreich",
        district: null,
        settlement: "Hallstatt",
        street: "Seestraße",
        house: "104",
      },
    ],
  ],
  [
    "here-07-london-gb-three-items.json",
    [
      {
        formatted_address: "10 Downing Street, London, SW1A 2AA, United Kingdom",
        postcode: "SW1A 2AA",
        ...london,
        street: "Downing Street",
        house: "10",
      },
      {
        formatted_address: "Churchill War Rooms, King Charles Street, London, SW1A 2AQ, United Kingdom",
        postcode: "SW1A 2AQ",
        ...london,
        street: "King Charles Street",
        house: "Churchill War Rooms",
      },
      {
        formatted_address: "Whitehall, London, SW1A 2, United Kingdom",
        postcode: "SW1A 2",
        ...london,
        street: "Whitehall",
        house: null,
      },
    ],
  ],
  [
    "here-08-new-york-us-numbers-as-numbers.json",
    [
      {
        formatted_address: "350 5th Ave, New York, NY 10118, United States",
        postcode: "10118",
        country: "United States",
        country_code: "US",
        state: "New York",
        district: "Midtown",
        settlement: "New York",
        street: "5th Ave",
        house: "350",
      },
    ],
  ],
  [
    "here-09-northern-territory-au-administrative-area.json",
    [
      {
        formatted_address: "Northern Territory, Australia",
        postcode: null,
        country: "Australia",
        country_code: "AU",
        state: "Northern Territory",
        district: null,
        settlement: null,
        street: null,
        house: null,
      },
    ],
  ],
  [
    "here-10-longyearbyen-sj-without-country-name-and-label.json",
    [
      {
        formatted_address: "Longyearbyen, Svalbard",
        postcode: "9170",
        country: "Svalbard and Jan Mayen",
        country_code: "SJ",
        state: null,
        district: null,
        settlement: "Longyearbyen",
        street: null,
        house: null,
      },
    ],
  ],
];

const nominatimCases: MappingCase[] = [
  [
    "nominatim-01-paris-rue-quincampoix-fr-jsonv2.json",
    [
      {
        formatted_address:
          "Starbucks, Rue Quincampoix, Beaubourg, Quartier Saint-Merri, Paris 4e Arrondissement, Paris, Île-de-France, France métropolitaine, 75004, France",
        postcode: "75004",
        country: "France",
        country_code: "FR",
        state: "Île-de-France",
        district: "Paris 4e Arrondissement",
        settlement: "Paris",
        street: "Rue Quincampoix",
        house: "Starbucks",
      },
    ],
  ],
  [
    "nominatim-02-berlin-kastanienallee-de-house-number-de.json",
    [
      {
        formatted_address: "77, Kastanienallee, Prenzlauer Berg, Pankow, Berlin, 10435, Deutschland",
        postcode: "10435",
        country: "Deutschland",
        country_code: "DE",
        state: null,
        district: "Prenzlauer Berg",
        settlement: "Berlin",
        street: "Kastanienallee",
        house: "77",
      },
    ],
  ],
  [
    "nominatim-03-washington-dc-us-jsonv2-en.json",
    [
      {
        formatted_address: "United States Chamber of Commerce Building, H Street Northwest, Washington, District of Columbia, 20006, United States",
        postcode: "20006",
        country: "United States",
        country_code: "US",
        state: "District of Columbia",
        district: null,
        settlement: "Washington",
        street: "H Street Northwest",
        house: "United States Chamber of Commerce Building",
      },
    ],
  ],
  [
    "nominatim-04-bruchsal-de-hamlet-inside-town.json",
    [
      {
        formatted_address: "6, Langental-Siedlung, Bruchsal, Verwaltungsgemeinschaft Bruchsal, Landkreis Karlsruhe, Baden-Württemberg, 76646, Deutschland",
        postcode: "76646",
        country: "Deutschland",
        country_code: "DE",
        state: "Baden-Württemberg",
        district: null,
        settlement: "Bruchsal",
        street: "Langental-Siedlung",
        house: "6",
      },
    ],
  ],
  [
    "nominatim-05-gordes-fr-village-road-result.json",
    [
      {
        formatted_address: "Route de Murs, Gordes, Apt, Vaucluse, Provence-Alpes-Côte d'Azur, France métropolitaine, 84220, France",
        postcode: "84220",
        country: "France",
        country_code: "FR",
        state: "Provence-Alpes-Côte d'Azur",
        district: null,
        settlement: "Gordes",
        street: "Route de Murs",
        house: null,
      },
    ],
  ],
  [
    "nominatim-06-seathwaite-gb-hamlet-campsite.json",
    [
      {
        formatted_address: "Seathwaite Farm Campsite, Seathwaite, Cumberland, England, CA12 5XJ, United Kingdom",
        postcode: "CA12 5XJ",
        country: "United Kingdom",
        country_code: "GB",
        state: "England",
        district: null,
        settlement: "Seathwaite",
        street: null,
        house: "Seathwaite Farm Campsite",
      },
    ],
  ],
  ["nominatim-07-null-island-0-0-unable-to-geocode.json", []],
  [
    "nominatim-08-cologne-cathedral-de-poi-with-house-number-polygon.json",
    [
      {
        formatted_address: "Kölner Dom, 4, Domkloster, Altstadt-Nord, Innenstadt, Köln, Nordrhein-Westfalen, 50667, Deutschland",
        postcode: "50667",
        country: "Deutschland",
        country_code: "DE",
        state: "Nordrhein-Westfalen",
        district: "Innenstadt",
        settlement: "Köln",
        street: "Domkloster",
        house: "4",
      },
    ],
  ],
  [
    "nominatim-09-keswick-gb-town-house-number.json",
    [
      {
        formatted_address: "21, Main Street, Keswick, Cumberland, England, CA12 5BL, United Kingdom",
        postcode: "CA12 5BL",
        country: "United Kingdom",
        country_code: "GB",
        state: "England",
        district: null,
        settlement: "Keswick",
        street: "Main Street",
        house: "21",
      },
    ],
  ],
  [
    "nominatim-10-sublette-county-wy-us-rural-road-no-settlement.json",
    [
      {
        formatted_address: "US Highway 191, Sublette County, Wyoming, 82941, United States",
        postcode: "82941",
        country: "United States",
        country_code: "US",
        state: "Wyoming",
        district: null,
        settlement: null,
        street: "US Highway 191",
        house: null,
      },
    ],
  ],
  [
    "nominatim-11-tokyo-jp-building-province-no-street-en.json",
    [
      {
        formatted_address: "Marunouchi Building, 1, Marunouchi 2-chome, Marunouchi, Chiyoda, Tokyo, 100-6390, Japan",
        postcode: "100-6390",
        country: "Japan",
        country_code: "JP",
        state: "Tokyo",
        district: "Marunouchi",
        settlement: "Chiyoda",
        street: null,
        house: "1",
      },
    ],
  ],
];

const html = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";

/** Bodies every mapper must refuse: not JSON objects at all. */
const notAnObject: [label: string, body: unknown][] = [
  ["an HTML page", html],
  ["null", null],
  ["a number", 42],
  ["an array", []],
];

/** A body and why it is not the provider's documented shape. */
type BadBody = [label: string, body: unknown];

const geoapifyBadBodies: BadBody[] = [
  ["an empty object", {}],
  ["a FeatureCollection cut off before its features", { type: "FeatureCollection" }],
  ["only the query echo, the results cut off", { query: { lat: 36.47032, lon: -86.65138 } }],
  ["results that is not an array", { results: "none" }],
  ["results holding a number", { results: [42] }],
  ["a feature whose properties is text", { type: "FeatureCollection", features: [{ type: "Feature", properties: "x" }] }],
  ["a city that is an object", { results: [{ city: { name: "Paris" }, formatted: "Paris, France" }] }],
  ["a house number that is a boolean", { results: [{ housenumber: true, formatted: "Paris, France" }] }],
];

const hereBadBodies: BadBody[] = [
  ["an empty object", {}],
  ["items that is an object", { items: {} }],
  ["an item without an address", { items: [{ title: "Heinestraße 42, 1020 Vienna, Austria", resultType: "houseNumber" }] }],
  ["an item that is text", { items: ["Heinestraße 42"] }],
  ["a postal code that is an array", { items: [{ title: "x", address: { label: "x", postalCode: ["1020"] } }] }],
  ["an address that is text", { items: [{ title: "x", address: "Heinestraße 42" }] }],
];

const nominatimBadBodies: BadBody[] = [
  ["an empty object", {}],
  ["a place cut off before its address", { place_id: 7323219, licence: "Data © OpenStreetMap contributors", lat: "48.86" }],
  ["an address that is text", { display_name: "Paris, France", address: "Paris" }],
  ["an address that is null", { display_name: "Paris, France", address: null }],
  ["a road that is an array", { display_name: "Paris, France", address: { road: ["Rue Quincampoix"] } }],
  ["an error other than Unable to geocode", { error: "Internal Server Error" }],
  ["the error object a bad parameter gets", { error: { code: 400, message: "Floating-point number expected" } }],
];

/** Error bodies the providers send with 4xx; the HTTP layer handles the status, but the bodies alone are not results. */
const providerErrorFixtures = {
  Geoapify: ["geoapify-err-401-invalid-apikey.json"],
  HERE: ["here-err-401-apikey-expired.json", "here-err-429-rate-limit.json"],
  Nominatim: ["nominatim-err-400-invalid-coordinates.json"],
};

const adapters = [
  { provider: "Geoapify", map: mapGeoapifyPayload, cases: geoapifyCases, badBodies: geoapifyBadBodies },
  { provider: "HERE", map: mapHerePayload, cases: hereCases, badBodies: hereBadBodies },
  { provider: "Nominatim", map: mapNominatimPayload, cases: nominatimCases, badBodies: nominatimBadBodies },
] as const;

describe.each(adapters)("$provider payload mapping", ({ provider, map, cases, badBodies }) => {
  test.each(cases)("maps %s", async (file, expected) => {
    expect(map(await fixture(file))).toEqual(expected);
  });

  test.each([...notAnObject, ...badBodies])("refuses %s with UnexpectedPayload", (_label, body) => {
    expect(() => map(body)).toThrow(UnexpectedPayload);
  });

  test.each(providerErrorFixtures[provider])("refuses the error body %s with UnexpectedPayload", async (file) => {
    const body = await fixture(file);
    expect(() => map(body)).toThrow(UnexpectedPayload);
  });
});

/** A forward answer's fixture and the places it must map to, whole. */
type ForwardCase = [file: string, expected: ForwardPlace[]];

const place = (address: Partial<Address> & Pick<Address, "formatted_address">, rest: Omit<ForwardPlace, "address">): ForwardPlace => ({
  address: { postcode: null, country: null, country_code: null, state: null, district: null, settlement: null, street: null, house: null, ...address },
  ...rest,
});

const forwardAdapters = [
  {
    provider: "Geoapify",
    map: mapGeoapifyForwardPayload,
    cases: [
      [
        "geoapify-fwd-01-springfield-il-us-json.json",
        [
          place(
            {
              formatted_address: "Springfield, IL, United States of America",
              country: "United States",
              country_code: "US",
              state: "Illinois",
              settlement: "Springfield",
            },
            { latitude: 39.7990175, longitude: -89.6501481, confidence: 1, providerId: "51c4f5b1f1a46956c059d85c4b2d46e64340f00101f901e6a8020000000000c00208" },
          ),
          place(
            {
              formatted_address: "Springfield, MO, United States of America",
              country: "United States",
              country_code: "US",
              state: "Missouri",
              settlement: "Springfield",
            },
            { latitude: 37.2081729, longitude: -93.2922989, confidence: 0.5, providerId: "5170a3c85b6d5257c0599d0c8ea8a69a4240f00101f901" },
          ),
        ],
      ],
      ["geoapify-fwd-02-nothing-found-json.json", []],
    ] as ForwardCase[],
  },
  {
    provider: "HERE",
    map: mapHereForwardPayload,
    cases: [
      [
        "here-fwd-01-berlin-de-locality.json",
        [
          place(
            { formatted_address: "Berlin, Deutschland", postcode: "10117", country: "Deutschland", country_code: "DE", state: "Berlin", settlement: "Berlin" },
            { latitude: 52.51604, longitude: 13.37691, confidence: 1, providerId: "here:cm:namedplace:20187403" },
          ),
          place(
            {
              formatted_address: "Berlin, NH, United States",
              postcode: "03570",
              country: "United States",
              country_code: "US",
              state: "New Hampshire",
              settlement: "Berlin",
            },
            { latitude: 44.46867, longitude: -71.18508, confidence: 0.94, providerId: "here:cm:namedplace:21014563" },
          ),
        ],
      ],
      ["here-03-tasman-sea-no-result.json", []],
    ] as ForwardCase[],
  },
  {
    provider: "Nominatim",
    map: mapNominatimForwardPayload,
    cases: [
      [
        "nominatim-fwd-01-paris-fr-us-jsonv2.json",
        [
          place(
            {
              formatted_address: "Paris, Île-de-France, France métropolitaine, France",
              country: "France",
              country_code: "FR",
              state: "Île-de-France",
              district: "Paris",
              settlement: "Paris",
            },
            { latitude: 48.8588897, longitude: 2.320041, confidence: 0.885, providerId: "relation/7444" },
          ),
          place(
            {
              formatted_address: "Paris, Lamar County, Texas, United States",
              country: "United States",
              country_code: "US",
              state: "Texas",
              settlement: "Paris",
            },
            { latitude: 33.6617962, longitude: -95.555513, confidence: 0.552, providerId: "relation/115357" },
          ),
        ],
      ],
      ["nominatim-fwd-02-nothing-found.json", []],
    ] as ForwardCase[],
  },
] as const;

describe.each(forwardAdapters)("$provider forward payload mapping", ({ map, cases }) => {
  test.each(cases)("maps %s", async (file, expected) => {
    expect(map(await fixture(file))).toEqual(expected);
  });

  test.each([
    ["a string", "Paris"],
    ["null", null],
    ["an object without its list", { nothing: [] }],
    ["a list of strings", { results: ["x"], items: ["x"] }],
  ])("refuses %s with UnexpectedPayload", (_label, body) => {
    expect(() => map(body)).toThrow(UnexpectedPayload);
  });

  test("leaves out a place without a usable point, keeps the others", async () => {
    const [file] = cases[0]!;
    const body = (await fixture(file)) as Record<string, unknown> | unknown[];
    const list = (Array.isArray(body) ? body : ((body as Record<string, unknown[]>).results ?? (body as Record<string, unknown[]>).items)!) as Record<
      string,
      unknown
    >[];
    for (const key of ["lat", "position"]) if (key in list[0]!) list[0]![key] = key === "lat" ? "north" : { lat: 91, lng: 0 };
    expect(map(body)).toHaveLength(list.length - 1);
  });
});

describe("the fixture folder", () => {
  test("every fixture is used by a mapping case or a refusal case", () => {
    const used = new Set([
      ...adapters.flatMap(({ cases }) => cases.map(([file]) => file)),
      ...forwardAdapters.flatMap(({ cases }) => cases.map(([file]) => file)),
      ...Object.values(providerErrorFixtures).flat(),
    ]);
    const files = readdirSync(fixtures).filter((file) => file.endsWith(".json"));
    expect(files.filter((file) => !used.has(file))).toEqual([]);
    expect([...used].filter((file) => !files.includes(file))).toEqual([]);
  });

  test("every mapped address has a non-empty formatted_address and no empty-string field, reverse and forward alike", async () => {
    const addresses = [
      ...(await Promise.all(adapters.flatMap(({ map, cases }) => cases.map(async ([file]) => map(await fixture(file)))))).flat(),
      ...(
        await Promise.all(forwardAdapters.flatMap(({ map, cases }) => cases.map(async ([file]) => map(await fixture(file)).map((place) => place.address))))
      ).flat(),
    ];
    expect(addresses.length).toBeGreaterThan(30);
    for (const address of addresses) {
      expect(address.formatted_address.length).toBeGreaterThan(0);
      expect(Object.values(address)).not.toContain("");
    }
  });
});

const vienna = { latitude: 48.21809, longitude: 16.38988 };

describe("buildGeoapifyRequest", () => {
  test("asks the default endpoint for JSON at the point, with the key as apiKey", () => {
    const { url, headers } = buildGeoapifyRequest(vienna, { apiKey: "geo-key" });
    expect(`${url.origin}${url.pathname}`).toBe(geoapifyReverseUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      lat: "48.2180900",
      lon: "16.3898800",
      format: "json",
      apiKey: "geo-key",
    });
    expect(headers).toEqual({});
  });

  test("sends the language's primary subtag, since Geoapify takes 2-letter codes only", () => {
    const { url } = buildGeoapifyRequest({ ...vienna, language: "de-AT" }, { apiKey: "geo-key" });
    expect(url.searchParams.get("lang")).toBe("de");
  });

  test("uses an overriding base URL as it is", () => {
    const { url } = buildGeoapifyRequest(vienna, { apiKey: "geo-key", baseUrl: "http://127.0.0.1:4010/v1/geocode/reverse" });
    expect(url.href).toStartWith("http://127.0.0.1:4010/v1/geocode/reverse?");
    expect(url.searchParams.get("apiKey")).toBe("geo-key");
  });
});

describe("buildHereRequest", () => {
  test("asks the default endpoint at lat,lon with the key as apiKey", () => {
    const { url, headers } = buildHereRequest(vienna, { apiKey: "here-key" });
    expect(`${url.origin}${url.pathname}`).toBe(hereRevgeocodeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({ at: "48.2180900,16.3898800", apiKey: "here-key" });
    expect(headers).toEqual({});
  });

  test("sends the language tag unchanged as lang", () => {
    const { url } = buildHereRequest({ ...vienna, language: "en-GB" }, { apiKey: "here-key" });
    expect(url.searchParams.get("lang")).toBe("en-GB");
  });

  test("uses an overriding base URL as it is", () => {
    const { url } = buildHereRequest(vienna, { apiKey: "here-key", baseUrl: "http://127.0.0.1:4011/v1/revgeocode" });
    expect(`${url.origin}${url.pathname}`).toBe("http://127.0.0.1:4011/v1/revgeocode");
  });
});

describe("buildNominatimRequest", () => {
  test("asks the public instance for jsonv2 with address details, identified by the User-Agent", () => {
    const { url, headers } = buildNominatimRequest(vienna, { userAgent: "linkgeo/0.1 (ops@example.com)" });
    expect(`${url.origin}${url.pathname}`).toBe(nominatimReverseUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: "jsonv2",
      lat: "48.2180900",
      lon: "16.3898800",
      addressdetails: "1",
    });
    expect(headers).toEqual({ "User-Agent": "linkgeo/0.1 (ops@example.com)" });
  });

  test("sends the language as accept-language", () => {
    const { url } = buildNominatimRequest({ ...vienna, language: "fr" }, { userAgent: "linkgeo/0.1" });
    expect(url.searchParams.get("accept-language")).toBe("fr");
  });

  test("asks a replica at its own URL, without a User-Agent when none is configured", () => {
    const { url, headers } = buildNominatimRequest(vienna, { baseUrl: "http://nominatim-replica-1:8080/reverse" });
    expect(`${url.origin}${url.pathname}`).toBe("http://nominatim-replica-1:8080/reverse");
    expect(url.searchParams.get("format")).toBe("jsonv2");
    expect(headers).toEqual({});
  });
});

describe.each([
  { provider: "Geoapify", build: (query: typeof vienna) => buildGeoapifyRequest(query, { apiKey: "secret-key" }) },
  { provider: "HERE", build: (query: typeof vienna) => buildHereRequest(query, { apiKey: "secret-key" }) },
  { provider: "Nominatim", build: (query: typeof vienna) => buildNominatimRequest(query, { userAgent: "linkgeo/0.1" }) },
])("$provider request coordinates", ({ build }) => {
  test.each([
    [{ latitude: 0, longitude: 0 }, "0.0000000", "0.0000000"],
    [{ latitude: 1e-7, longitude: -1e-7 }, "0.0000001", "-0.0000001"],
    [{ latitude: -33.8567844, longitude: 151.213108 }, "-33.8567844", "151.2131080"],
  ])("writes %o in plain decimals", (query, latitude, longitude) => {
    const { url } = build(query);
    expect(url.search).not.toMatch(/\de-?\d/);
    const params = url.searchParams;
    const written = params.get("at")?.split(",") ?? [params.get("lat"), params.get("lon")];
    expect(written).toEqual([latitude, longitude]);
  });

  test("puts no key in a header and sends no language when none is asked", () => {
    const { url, headers } = build(vienna);
    expect(JSON.stringify(headers)).not.toContain("secret-key");
    expect(url.searchParams.has("lang") || url.searchParams.has("accept-language")).toBe(false);
  });
});

describe("cleanField", () => {
  test.each([
    ["  Paris  ", "Paris"],
    ["\t75004\n", "75004"],
    ["", null],
    ["   ", null],
    [undefined, null],
    [null, null],
    [37188, "37188"],
    [0, "0"],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])("cleans %p to %p", (value, expected) => {
    expect(cleanField(value)).toBe(expected);
  });
});

describe("readField and firstField", () => {
  const record = { city: "  ", town: "Keswick", village: "Braithwaite", postcode: 37188, empty: "" };

  test("reads text and numbers, and a missing key as null", () => {
    expect([readField(record, "town"), readField(record, "postcode"), readField(record, "absent")]).toEqual(["Keswick", "37188", null]);
  });

  test.each([
    ["an object", { name: "Paris" }],
    ["an array", ["Paris"]],
    ["a boolean", true],
  ])("refuses %s where text belongs", (_label, value) => {
    expect(() => readField({ city: value }, "city")).toThrow(UnexpectedPayload);
  });

  test("picks the first key with a non-blank value, in the order given", () => {
    expect(firstField(record, ["city", "town", "village"])).toBe("Keswick");
    expect(firstField(record, ["village", "town"])).toBe("Braithwaite");
    expect(firstField(record, ["city", "empty", "absent"])).toBeNull();
  });
});

const nothingKnown: AddressParts = {
  postcode: null,
  country: null,
  country_code: null,
  state: null,
  district: null,
  settlement: null,
  street: null,
  house: null,
};

describe("formatAddress", () => {
  test("writes house, street, settlement, postcode, state and country, most specific first", () => {
    const parts: AddressParts = {
      postcode: "1020",
      country: "Austria",
      country_code: "AT",
      state: "Lower Austria",
      district: "Leopoldstadt",
      settlement: "Vienna",
      street: "Heinestraße",
      house: "42",
    };
    expect(formatAddress(parts)).toBe("42, Heinestraße, Vienna, 1020, Lower Austria, Austria");
  });

  test("leaves out a part equal to one already written", () => {
    expect(formatAddress({ ...nothingKnown, settlement: "Vienna", postcode: "1020", state: "Vienna", country: "Austria" })).toBe("Vienna, 1020, Austria");
  });

  test("is null, never empty, when nothing is known", () => {
    expect(formatAddress(nothingKnown)).toBeNull();
    expect(formatAddress({ ...nothingKnown, country_code: "FR", district: "Beaubourg" })).toBeNull();
  });
});

describe("completeAddress", () => {
  test("keeps the provider's own formatted address", () => {
    expect(completeAddress({ ...nothingKnown, settlement: "Paris" }, "Paris, France")).toEqual({
      ...nothingKnown,
      formatted_address: "Paris, France",
      settlement: "Paris",
    });
  });

  test("builds one from the parts when the provider gives none", () => {
    expect(completeAddress({ ...nothingKnown, street: "Rue Moal", country: "France" }, null)).toEqual({
      ...nothingKnown,
      formatted_address: "Rue Moal, France",
      street: "Rue Moal",
      country: "France",
    });
  });

  test("drops a result that says nothing", () => {
    expect(completeAddress(nothingKnown, null)).toBeNull();
  });
});

describe("country helpers", () => {
  test.each([
    ["AUT", "AT"],
    ["aut", "AT"],
    ["fr", "FR"],
    ["GB", "GB"],
    [" USA ", "US"],
    ["XX", null],
    ["ZZZ", null],
    ["040", null],
    ["", null],
    ["Austria", null],
    [null, null],
  ])("toAlpha2CountryCode(%p) is %p", (code, expected) => {
    expect(toAlpha2CountryCode(code)).toBe(expected);
  });

  test.each([
    ["US", "United States of America"],
    ["deu", "Germany"],
    ["sj", "Svalbard and Jan Mayen"],
    ["XX", null],
    [null, null],
  ])("englishCountryName(%p) is %p", (code, expected) => {
    expect(englishCountryName(code)).toBe(expected);
  });

  test("resolveCountry keeps the provider's name and falls back to English from the code", () => {
    expect(resolveCountry("Österreich", "AUT")).toEqual({ country: "Österreich", country_code: "AT" });
    expect(resolveCountry(null, "fr")).toEqual({ country: "France", country_code: "FR" });
    expect(resolveCountry("Atlantis", "XX")).toEqual({ country: "Atlantis", country_code: null });
    expect(resolveCountry(null, null)).toEqual({ country: null, country_code: null });
  });
});

describe("the forward search's requests", () => {
  const query = {
    text: "Paris, TX",
    limit: 5,
    countries: ["US", "CA"],
    language: "en-GB",
    near: { latitude: 33.66, longitude: -95.55 },
    bbox: { south: 30, west: -100, north: 36, east: -90 },
  };

  test("Geoapify: text, JSON, the countries as a filter, the box and the point as biases, the key as apiKey", () => {
    const { url } = buildGeoapifyForwardRequest(query, { apiKey: "geo-key" });
    expect(`${url.origin}${url.pathname}`).toBe(geoapifySearchUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      text: "Paris, TX",
      format: "json",
      limit: "5",
      lang: "en",
      filter: "countrycode:us,ca",
      bias: "rect:-100.0000000,30.0000000,-90.0000000,36.0000000|proximity:-95.5500000,33.6600000",
      apiKey: "geo-key",
    });
  });

  test("HERE: q, the countries in alpha-3 as its filter, the point (else the box's centre) as at: its box would filter", () => {
    const { url } = buildHereForwardRequest(query, { apiKey: "here-key" });
    expect(`${url.origin}${url.pathname}`).toBe(hereGeocodeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "Paris, TX",
      limit: "5",
      lang: "en-GB",
      in: "countryCode:USA,CAN",
      at: "33.6600000,-95.5500000",
      apiKey: "here-key",
    });
    const boxOnly = buildHereForwardRequest({ ...query, countries: undefined, near: undefined }, { apiKey: "k" }).url.searchParams;
    expect([boxOnly.get("in"), boxOnly.get("at")]).toEqual([null, "33.0000000,-95.0000000"]);
  });

  test("Nominatim: /search beside a replica's /reverse, jsonv2 with details, country codes, the box as a viewbox", () => {
    const { url, headers } = buildNominatimForwardRequest(query, { baseUrl: "http://127.0.0.1:8088/reverse", userAgent: "linkgeo-test" });
    expect(`${url.origin}${url.pathname}`).toBe("http://127.0.0.1:8088/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "Paris, TX",
      format: "jsonv2",
      addressdetails: "1",
      limit: "5",
      countrycodes: "us,ca",
      viewbox: "-100.0000000,36.0000000,-90.0000000,30.0000000",
      "accept-language": "en-GB",
    });
    expect(headers).toEqual({ "User-Agent": "linkgeo-test" });
    expect(`${buildNominatimForwardRequest({ text: "x", limit: 1 }, { userAgent: "u" }).url.origin}/search`).toBe(nominatimSearchUrl);
  });
});

describe("the forward endpoint beside a configured reverse one", () => {
  test.each([
    ["http://127.0.0.1:8088/reverse", /^reverse(\.php)?$/, "search", "http://127.0.0.1:8088/search"],
    ["http://nominatim.internal/nominatim/reverse.php?tenant=a", /^reverse(\.php)?$/, "search", "http://nominatim.internal/nominatim/search?tenant=a"],
    ["http://proxy.internal/nominatim/", /^reverse(\.php)?$/, "search", "http://proxy.internal/nominatim/search"],
    ["http://127.0.0.1:9000/v1/revgeocode/", /^revgeocode$/, "geocode", "http://127.0.0.1:9000/v1/geocode"],
    ["http://127.0.0.1:9001/v1/geocode/reverse?x=1", /^reverse$/, "search", "http://127.0.0.1:9001/v1/geocode/search?x=1"],
  ])("%s → %s", (configured, segment, forward, expected) => {
    expect(siblingEndpoint(configured, segment, forward).toString()).toBe(expected);
  });

  test("a box across the antimeridian: Geoapify and HERE bias by its centre, Nominatim leaves it out", () => {
    const across = { text: "Suva", limit: 1, bbox: { west: 170, south: -20, east: -170, north: -10 } };
    expect(buildGeoapifyForwardRequest(across, { apiKey: "k" }).url.searchParams.get("bias")).toBe("proximity:180.0000000,-15.0000000");
    expect(buildHereForwardRequest(across, { apiKey: "k" }).url.searchParams.get("at")).toBe("-15.0000000,180.0000000");
    expect(buildNominatimForwardRequest(across, { userAgent: "u" }).url.searchParams.has("viewbox")).toBe(false);
  });

  test("a place whose coordinates are empty strings or not decimals is left out, not put at 0,0", () => {
    expect(mapNominatimForwardPayload([{ lat: "", lon: " ", address: { city: "Nowhere", country_code: "fr" }, display_name: "Nowhere" }])).toEqual([]);
    expect(mapNominatimForwardPayload([{ lat: "0x10", lon: "1", address: { city: "Hex", country_code: "fr" }, display_name: "Hex" }])).toEqual([]);
  });
});
