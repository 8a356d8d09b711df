import { InvalidRequest } from "@linkgeo/shared";
import type { ReverseQuery } from "../providers/reverse-query.ts";
import { InvalidCoordinates } from "./geocode-errors.ts";

// Plain decimal notation only: "1e400", "Infinity", "0x10" and " 5" are not coordinates.
const decimal = /^[+-]?(\d{1,3}(\.\d{1,15})?|\.\d{1,15})$/;
const languageTag = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

/** Reads and checks the query string of `/reverse-geocode`. */
export function parseReverseQuery(raw: { latitude?: string; longitude?: string; language?: string }): ReverseQuery {
  const latitude = coordinate("latitude", raw.latitude, 90);
  const longitude = coordinate("longitude", raw.longitude, 180);
  const language = checkedLanguage(raw.language);
  return language === undefined ? { latitude, longitude } : { latitude, longitude, language };
}

/** The preferred language of an answer, as given, when it is a language tag; a batch checks it once for all its points. */
export function checkedLanguage(raw: string | undefined): string | undefined {
  if (raw !== undefined && !languageTag.test(raw)) throw InvalidRequest.because("language must be a language tag such as en, de or pt-BR");
  return raw;
}

function coordinate(name: string, raw: string | undefined, limit: number): number {
  if (raw === undefined || raw === "") throw InvalidCoordinates.because(`${name} is required`);
  if (!decimal.test(raw)) throw InvalidCoordinates.because(`${name} must be a decimal number of degrees`);
  const value = Number(raw);
  if (value < -limit || value > limit) throw InvalidCoordinates.because(`${name} must be between -${limit} and ${limit}`);
  return value;
}
