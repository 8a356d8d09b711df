/**
 * A response body as JSON, typed loosely on purpose: suites check it with
 * whole-object toEqual against the documented API, which is the real type check.
 */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers of every shape and compare them whole.
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
