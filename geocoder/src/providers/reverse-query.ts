/** One reverse-geocoding question, already validated. */
export interface ReverseQuery {
  /** Decimal degrees, -90..90. */
  latitude: number;
  /** Decimal degrees, -180..180. */
  longitude: number;
  /** BCP 47 language tag the caller prefers (`de`, `en-GB`), if any. */
  language?: string;
}
