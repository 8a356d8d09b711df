import type { Address } from "./address.ts";

/** Every field of an address except the formatted line, as a provider adapter fills them in. */
export type AddressParts = Omit<Address, "formatted_address">;

/**
 * A field as the API gives it: trimmed text, or null when it is absent
 * or blank. Numbers become text, because providers send the same field either
 * way (a postcode as 37188 or "37188", a house number as 12).
 */
export function cleanField(value: string | number | null | undefined): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/**
 * A one-line address for a provider that gives none: the known parts, most
 * specific first, the way Nominatim writes `display_name`. A part equal to one
 * already written is left out ("Vienna, 1020, Vienna" would read as a mistake).
 * Null when nothing at all is known.
 */
export function formatAddress(parts: AddressParts): string | null {
  const lineParts: string[] = [];
  for (const part of [parts.house, parts.street, parts.settlement, parts.postcode, parts.state, parts.country]) {
    if (part !== null && !lineParts.includes(part)) lineParts.push(part);
  }
  return lineParts.length === 0 ? null : lineParts.join(", ");
}

/**
 * The API's address from the parts and the provider's own one-line
 * address; null when neither says anything, so the adapter drops the result
 * rather than answer with an empty `formatted_address`.
 */
export function completeAddress(parts: AddressParts, providerFormatted: string | null): Address | null {
  const formatted = providerFormatted ?? formatAddress(parts);
  if (formatted === null) return null;
  return {
    formatted_address: formatted,
    postcode: parts.postcode,
    country: parts.country,
    country_code: parts.country_code,
    state: parts.state,
    district: parts.district,
    settlement: parts.settlement,
    street: parts.street,
    house: parts.house,
  };
}
