/**
 * Whether an alias is free, asked while a person types it: a link's public
 * stats answer 200 for a taken alias and 404 for one no link has. A 404
 * does not promise the create will take it (a reserved word is refused
 * then, with the reason), so the page says only that no link has it. For a
 * taken alias, up to two free variants are offered.
 */
import { shortCodeShape } from "@linkgeo/shared/wire";
import { ApiError } from "./api.ts";
import { call } from "./api-call.ts";

/** What the API takes as an alias: the page checks it before asking anything (link.ts too, for a code in its address). */
export const aliasShape = shortCodeShape;

export type AliasCheck = { alias: string; taken: false } | { alias: string; taken: true; suggestions: string[] };

/** Undefined when it cannot tell (a bad shape, the server not answering, a newer check started). */
export async function checkAlias(alias: string, signal: AbortSignal): Promise<AliasCheck | undefined> {
  if (!aliasShape.test(alias)) return undefined;
  const taken = await isTaken(alias, signal);
  if (taken !== true) return taken === false ? { alias, taken: false } : undefined;
  const candidates = [`${alias}-2`, `${alias}-3`, `${alias}-${new Date().getFullYear()}`].filter((candidate) => aliasShape.test(candidate));
  const free = await Promise.all(candidates.map(async (candidate) => ((await isTaken(candidate, signal)) === false ? candidate : undefined)));
  return { alias, taken: true, suggestions: free.filter((candidate) => candidate !== undefined).slice(0, 2) };
}

async function isTaken(alias: string, signal: AbortSignal): Promise<boolean | undefined> {
  try {
    await call("GET /shorten/{short_url}/stats", { params: { short_url: alias }, signal });
    return true;
  } catch (error) {
    return error instanceof ApiError && error.status === 404 ? false : undefined;
  }
}
