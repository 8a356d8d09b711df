import { t } from "elysia";

const Totals = t.Object({
  visits: t.Integer({ minimum: 0, description: "Every counted redirect: humans and bots" }),
  humans: t.Integer({ minimum: 0 }),
  bots: t.Integer({ minimum: 0 }),
});

const TopList = t.Array(t.Object({ value: t.String(), visits: t.Integer({ minimum: 0 }) }), {
  description: 'The 10 values with the most visits, then "other" for the rest',
});

const Top = t.Object({
  referrers: TopList,
  countries: TopList,
  browsers: TopList,
  os: TopList,
  devices: TopList,
});

const reportFields = {
  from: t.String({ format: "date-time" }),
  to: t.String({ format: "date-time" }),
  granularity: t.Union([t.Literal("hour"), t.Literal("day")]),
  totals: Totals,
  series: t.Array(
    t.Composite([t.Object({ t: t.String({ format: "date-time", description: "Start of the hour or UTC day" }) }), Totals]),
    { description: "Every bucket of the range, oldest first; 0 where nothing happened" },
  ),
};

export const LinkVisitReport = t.Object({ short_url: t.String(), ...reportFields, top: Top }, { title: "LinkVisits" });

export const AllVisitReport = t.Object(
  { ...reportFields, top: t.Composite([Top, t.Object({ links: TopList })]) },
  { title: "AllVisits" },
);

export const VisitQuery = t.Object({
  from: t.Optional(t.String({ description: "ISO 8601, e.g. 2026-11-01 or 2026-11-01T00:00:00Z; default 30 days before `to`" })),
  to: t.Optional(t.String({ description: "ISO 8601; default now" })),
  granularity: t.Optional(t.String({ description: "hour or day (default); at most a year of hours" })),
});
