import { t, type Static } from "elysia";

const nullableString = (description: string) => t.Union([t.String(), t.Null()], { description });

/** The API's address object (docs/geocoder.md: "Addresses"): a field the provider does not give is null, never "". */
export const Address = t.Object(
  {
    formatted_address: t.String({ minLength: 1, description: "Never empty" }),
    postcode: nullableString("Postal code"),
    country: nullableString("Country, full name"),
    country_code: nullableString("ISO 3166-1 alpha-2, upper case"),
    state: nullableString("First-level region"),
    district: nullableString("Part of a city"),
    settlement: nullableString("City, town, village or hamlet"),
    street: nullableString("Street"),
    house: nullableString("House number, or the name of the building or place"),
  },
  { title: "Address" },
);
export type Address = Static<typeof Address>;

/** The address's fields in the API's order (a CSV's columns, GeoJSON's null properties). */
export const addressFieldNames = Object.keys(Address.properties) as Array<keyof Address>;
