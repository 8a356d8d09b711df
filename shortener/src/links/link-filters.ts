import { InvalidRequest } from "@linkgeo/shared";
import { linkStates, type LinkState } from "./destination.ts";

/** `?state=`: absent is every state; anything but a known one is 400 naming them (a tag is parseTag's, in link-options.ts). */
export function parseLinkState(raw: string | undefined): LinkState | undefined {
  if (raw === undefined) return undefined;
  const state = linkStates.find((known) => known === raw);
  if (!state) throw InvalidRequest.because(`state must be ${linkStates.slice(0, -1).join(", ")} or ${linkStates.at(-1)}`);
  return state;
}
