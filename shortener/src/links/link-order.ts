import { InvalidRequest } from "@linkgeo/shared";

/** How a listing of links is sorted; every order ends with the newest first among equals. */
export const linkOrders = ["newest", "most_visited", "last_visited"] as const;
export type LinkOrder = (typeof linkOrders)[number];

/** `?sort=`: absent is newest (the listing's order before sorting was offered); anything unknown is 400. */
export function parseLinkOrder(raw: string | undefined): LinkOrder {
  if (raw === undefined) return "newest";
  const order = linkOrders.find((known) => known === raw);
  if (!order) throw InvalidRequest.because(`sort must be ${linkOrders.slice(0, -1).join(", ")} or ${linkOrders.at(-1)}`);
  return order;
}
