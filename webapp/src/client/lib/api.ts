/** Calls the JSON API of the gateway this page came from, and turns its error shape into ApiError. */

/** Who is asking: a link's manage token, or the admin session cookie (with its CSRF token for changes). */
export type Credential = { kind: "token"; token: string } | { kind: "session"; csrfToken: string };

export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  credential?: Credential | null;
  signal?: AbortSignal;
  /** "blob": a successful answer's body as it came (a CSV download); errors are read as JSON all the same. */
  as?: "json" | "blob";
  /** Sent with `Cache-Control: no-cache`: a read that must see the client's own writes just made (the server reads its primary). */
  fresh?: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error object's other fields, e.g. the geocoder's `providers` with each one's reason. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export interface ApiResponse<T> {
  body: T;
  headers: Headers;
}

export async function apiResponse<T>(path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.credential?.kind === "token") headers.authorization = `Bearer ${options.credential.token}`;
  if (options.credential?.kind === "session") headers["x-csrf-token"] = options.credential.csrfToken;
  // The answer must have the client's own writes: read on the primary, not a read replica a moment behind.
  if (options.fresh) headers["cache-control"] = "no-cache";
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The server could not be reached. Check your connection and try again.");
  }
  if (response.status === 204) return { body: undefined as T, headers: response.headers };
  if (options.as === "blob" && response.ok) return { body: (await response.blob()) as T, headers: response.headers };
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorOf(response, body);
  return { body: body as T, headers: response.headers };
}

export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).body;
}

/** The API's error shape (or an answer without one) as an ApiError: for a call that reads its answer itself (an import's NDJSON). */
export function errorOf(response: Response, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const details =
    typeof error === "object" && error !== null ? Object.fromEntries(Object.entries(error).filter(([key]) => key !== "code" && key !== "message")) : {};
  const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
  let message = typeof error?.message === "string" ? error.message : `The server answered ${response.status}.`;
  if (response.status === 429) {
    const wait = Number(response.headers.get("retry-after"));
    message = `Too many requests: try again${Number.isFinite(wait) && wait > 0 ? ` in ${Math.ceil(wait)} s` : " in a moment"}.`;
  }
  return new ApiError(response.status, code, message, details);
}
