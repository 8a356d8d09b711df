/**
 * The stack's API as a browser test sets up what its page then shows (links,
 * keys, domains, reports): a method, a path, an optional JSON body and an
 * optional bearer token; the status and the parsed body (null for a 204).
 */
export function stackApi(base: () => string) {
  // biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field and checked by the expectations
  return async (method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };
}
