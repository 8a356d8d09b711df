/**
 * Keeping a provider's credentials out of everything printed: its URL
 * redacted, and its keys scrubbed from upstream text (an error page can
 * echo the request) before an excerpt of it reaches a log or a client.
 */

// Query parameters that carry credentials in the providers we call
// (Geoapify `apiKey`, HERE `apiKey`, others `api_key`/`key`/tokens).
const secretParameter = /^(api[-_]?key|key|access[-_]?token|token|app[-_]?code)$/i;
const secretHeader = /^(authorization|proxy-authorization)$|key|token|secret/i;

/** The URL with credentials replaced, for anything printed; unchanged (as given) when it has none. */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  const names = [...new Set(parsed.searchParams.keys())].filter((name) => secretParameter.test(name));
  if (names.length === 0 && parsed.password === "" && parsed.username === "") return String(url);
  for (const name of names) parsed.searchParams.set(name, "REDACTED");
  if (parsed.username !== "") parsed.username = "REDACTED";
  if (parsed.password !== "") parsed.password = "REDACTED";
  return parsed.toString();
}

/** Every credential a request carries, to scrub from upstream text before it is printed. */
export function secretsOf(request: { url: URL; headers: Record<string, string> }): string[] {
  const values = [...request.url.searchParams].filter(([name]) => secretParameter.test(name)).map(([, value]) => value);
  for (const [name, value] of Object.entries(request.headers)) {
    // Whole, and without a scheme word such as "Bearer".
    if (secretHeader.test(name)) values.push(value, value.split(/\s+/).at(-1) ?? value);
  }
  if (request.url.password) values.push(request.url.password, decodeURIComponent(request.url.password));
  // Longest first, so a key is scrubbed whole before any part of it; very short values would scrub noise.
  return [...new Set(values)].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
}

/** At most 200 characters of upstream text, credentials removed. */
export function excerpt(text: string, secrets: string[]): string {
  let scrubbed = text;
  for (const secret of secrets) scrubbed = scrubbed.replaceAll(secret, "[redacted]");
  return scrubbed.length > 200 ? `${scrubbed.slice(0, 200)}…` : scrubbed;
}

export function bodyText(data: unknown): string {
  if (data === undefined) return "";
  return typeof data === "string" ? data : JSON.stringify(data);
}
