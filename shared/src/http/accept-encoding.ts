/** The two forms a static file is kept in: as it is, and gzipped. */
export type StoredCoding = "gzip" | "identity";

// RFC 9110 §12.4.2: "0" to "0.999" or "1" to "1.000"; anything else is not a weight.
const qvalueShape = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
// RFC 9110 §5.6.2: a token's characters.
const tokenShape = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Which form of a file to send for a request's `Accept-Encoding`, per RFC
 * 9110 §12.5.3: codings are case-insensitive, `q=0` means "not acceptable",
 * `*` stands for every coding the header does not name, and `identity` is
 * acceptable unless refused by name or by `*;q=0`. gzip goes out only when
 * the client accepts it at least as much as the file as it is.
 *
 * No header, an empty one, or one that names nothing usable: the file as it
 * is, which every client can read. When the client refuses both forms it
 * still gets the file as it is, not a 406: RFC 9110 recommends the
 * unencoded answer as the interoperable one (httpwg/http-core#980).
 */
export function storedCodingFor(acceptEncoding: string | null): StoredCoding {
  if (acceptEncoding === null) return "identity";
  const weights = weightsOf(acceptEncoding);
  const any = weights.get("*");
  // RFC 9110 §8.4.1.3: x-gzip is another name for gzip.
  const gzip = weights.get("gzip") ?? weights.get("x-gzip") ?? any ?? 0;
  const identity = weights.get("identity") ?? any ?? 1;
  return gzip > 0 && gzip >= identity ? "gzip" : "identity";
}

/**
 * Each coding the header names (lower-case) with its weight; the first
 * mention of a coding counts. A malformed element (a bad token, a weight
 * that is not a qvalue, a parameter other than q) asks for nothing and is
 * skipped, so a client's mistake can only ever get it the plain file.
 */
function weightsOf(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of header.split(",")) {
    const [codingText = "", ...parameters] = element.split(";");
    const coding = codingText.trim().toLowerCase();
    if (coding === "" || !tokenShape.test(coding) || parameters.length > 1) continue;
    const weight = parameters.length === 0 ? 1 : weightOf(parameters[0]!);
    if (weight !== undefined && !weights.has(coding)) weights.set(coding, weight);
  }
  return weights;
}

/** The value of a `q=<qvalue>` parameter (the name in any case), or undefined for anything else. */
function weightOf(parameter: string): number | undefined {
  const separator = parameter.indexOf("=");
  if (separator < 0 || parameter.slice(0, separator).trim().toLowerCase() !== "q") return undefined;
  const value = parameter.slice(separator + 1).trim();
  return qvalueShape.test(value) ? Number(value) : undefined;
}
