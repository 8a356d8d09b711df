import { cleanField } from "../addresses/address-fields.ts";
import { UnexpectedPayload } from "./provider-error.ts";

/** A JSON object from a provider's body, not yet trusted. */
export type ProviderRecord = Readonly<Record<string, unknown>>;

export function isProviderRecord(value: unknown): value is ProviderRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One field of a provider record, cleaned. An object, array or boolean where
 * text belongs means the body is not the documented format: better to fail
 * over to another provider than to answer with half-understood data.
 */
export function readField(record: ProviderRecord, key: string): string | null {
  const value = record[key];
  if (value === undefined || value === null || typeof value === "string" || typeof value === "number") {
    return cleanField(value);
  }
  throw new UnexpectedPayload(`field "${key}" is ${Array.isArray(value) ? "an array" : `a ${typeof value}`}, expected text`);
}

/** The first of `keys` that holds a non-blank value, in the order given. */
export function firstField(record: ProviderRecord, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = readField(record, key);
    if (value !== null) return value;
  }
  return null;
}
