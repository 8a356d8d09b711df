// The package's browser entry: its Node entry registers all ~80 locales at
// import, and the API only gives English names.
import { alpha2ToAlpha3, alpha3ToAlpha2, getName, isValid, registerLocale } from "i18n-iso-countries/index.js";
import english from "i18n-iso-countries/langs/en.json";

registerLocale(english);

const alpha2Code = /^[A-Za-z]{2}$/;
const alpha3Code = /^[A-Za-z]{3}$/;

/**
 * A country code as the API gives it: ISO 3166-1 alpha-2, upper case.
 * Accepts alpha-2 in any case (Nominatim and Geoapify send "fr") and alpha-3
 * (HERE sends "FRA"); anything that is not an assigned code gives null.
 */
export function toAlpha2CountryCode(code: string | null): string | null {
  if (code === null) return null;
  const trimmed = code.trim();
  if (alpha2Code.test(trimmed)) return isValid(trimmed) ? trimmed.toUpperCase() : null;
  if (alpha3Code.test(trimmed)) return alpha3ToAlpha2(trimmed.toUpperCase()) ?? null;
  // Numeric codes are valid ISO too, but no provider sends them; refusing them keeps "040" from passing as Austria.
  return null;
}

/** The English name of a country from its alpha-2 or alpha-3 code ("US" → "United States of America"), or null. */
export function englishCountryName(code: string | null): string | null {
  const alpha2 = toAlpha2CountryCode(code);
  if (alpha2 === null) return null;
  return getName(alpha2, "en") ?? null;
}

/**
 * The address's country fields from what a provider gave. The provider's
 * name wins because it follows the requested language ("Deutschland" for
 * `language=de`); the English name from the code fills in when it sends none.
 */
export function resolveCountry(providerName: string | null, providerCode: string | null): { country: string | null; country_code: string | null } {
  return {
    country: providerName ?? englishCountryName(providerCode),
    country_code: toAlpha2CountryCode(providerCode),
  };
}

/** An ISO alpha-2 code as alpha-3 (`AT` → `AUT`), for a provider that wants those (HERE); null for no country. */
export function alpha3CountryCode(alpha2: string): string | null {
  return alpha2ToAlpha3(alpha2.toUpperCase()) ?? null;
}

/** Whether `code` is an ISO 3166-1 alpha-2 code of a country or territory (`FR`, `SJ`); `UK` and `ZZ` are not. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isValid(code);
}
