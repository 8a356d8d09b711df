import { t } from "elysia";

/** The longest id a point or a query may carry, in a batch or a job. */
export const maxItemIdLength = 200;

/** A point's or a query's own id, echoed in its result. */
export const ItemId = t.Union([t.String({ maxLength: maxItemIdLength }), t.Number()], { description: "Yours, echoed in the item's result" });

/** A point of a batch or a job as sent. Checked per point (a bad one is its own error, never the batch's): so any JSON value is let through here. */
export const SentPointItem = t.Object({
  latitude: t.Unknown({ description: "Decimal degrees, -90 to 90, as a number or a string", examples: [48.8584] }),
  longitude: t.Unknown({ description: "Decimal degrees, -180 to 180, as a number or a string", examples: [2.2945] }),
  id: t.Optional(ItemId),
});

/** A query of a forward batch or job as sent, checked per query as GET /geocode checks its parameters (forward-params.ts). */
export const SentQueryItem = t.Object({
  q: t.Unknown({ description: "What to look for, as GET /geocode's q", examples: ["Paris, TX"] }),
  limit: t.Optional(t.Unknown({ description: "As GET /geocode's limit (a number or a string)" })),
  country: t.Optional(t.Unknown({ description: "As GET /geocode's country (a string, or a list of codes)" })),
  near: t.Optional(t.Unknown({ description: "As GET /geocode's near: latitude,longitude" })),
  bbox: t.Optional(t.Unknown({ description: "As GET /geocode's bbox: west,south,east,north" })),
  id: t.Optional(ItemId),
});

/** The request's settings for every item: `forward` for the forward routes' wording. */
export function sentSettings(forward: boolean) {
  return {
    platform: t.Optional(
      t.String({
        description: forward
          ? "A registered geocoder with a forward search, for every query; default: the default chain"
          : "A registered geocoder for every point, any case; default: the default chain",
      }),
    ),
    language: t.Optional(t.String({ description: "Preferred language of the answers, e.g. en, de, pt-BR" })),
  };
}
