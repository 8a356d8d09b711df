import { domainParameter } from "../domains/domain-query.ts";
import { t } from "elysia";
import { dimensions } from "./link-visits.ts";
import { orphanKinds } from "./orphan-visit-store.ts";

const Totals = t.Object({
  visits: t.Integer({ minimum: 0, description: "Every counted redirect: humans and bots" }),
  humans: t.Integer({ minimum: 0 }),
  bots: t.Integer({ minimum: 0 }),
});

const TopList = t.Array(t.Object({ value: t.String(), visits: t.Integer({ minimum: 0 }) }), {
  description: 'The 10 values with the most visits, then "other" for the rest',
});

const SplitList = t.Array(
  t.Object({
    value: t.String(),
    visits: t.Integer({ minimum: 0, description: "Humans and bots" }),
    humans: t.Integer({ minimum: 0 }),
    bots: t.Integer({ minimum: 0 }),
  }),
  {
    description:
      'The 10 values with the most visits of `visitors`, then "other" for the rest; a value with none of theirs is left out. ' +
      "Each value says all its visits, humans and bots, whatever the ranking.",
  },
);

const Top = t.Object({
  referrers: SplitList,
  countries: SplitList,
  browsers: SplitList,
  os: SplitList,
  devices: SplitList,
  bots: t.Array(SplitList.items, { description: 'The bots by name (the browsers of bot visits), most visits first, then "other"' }),
});

const offNull = "; null with analytics off";

const Analytics = t.UnionEnum(["on", "off"], {
  description:
    "ANALYTICS on this server. Off, visits are counted (access_count) but not recorded: totals, series and top are null, " +
    "as nothing says how many visits a range had. What was recorded while they were on shows again once they are back on.",
});

const reportFields = {
  from: t.String({ format: "date-time" }),
  to: t.String({ format: "date-time" }),
  granularity: t.Union([t.Literal("hour"), t.Literal("day")]),
  analytics: Analytics,
  totals: t.Nullable(Totals, { description: `The series summed${offNull}` }),
  series: t.Nullable(
    t.Array(t.Composite([t.Object({ t: t.String({ format: "date-time", description: "Start of the hour or UTC day" }) }), Totals]), {
      description: `Every bucket of the range, oldest first; 0 where nothing happened${offNull}`,
    }),
  ),
};

const filterFields = {
  visitors: t.UnionEnum(["all", "humans", "bots"], { description: "Whose visits rank the top lists" }),
  filter: t.Nullable(t.Object({ breakdown: t.UnionEnum(dimensions), value: t.String() }), {
    description: "The one value whose visits the series and totals count (by UTC day); null: every visit",
  }),
};

export const LinkVisitReport = t.Object(
  { short_url: t.String(), ...reportFields, ...filterFields, top: t.Nullable(Top, { description: `The top lists${offNull}` }) },
  { title: "LinkVisits" },
);

export const AllVisitReport = t.Object(
  {
    ...reportFields,
    ...filterFields,
    top: t.Nullable(
      t.Composite([Top, t.Object({ links: t.Array(TopList.items, { description: "The 10 links with the most visits (humans and bots), then other" }) })]),
      { description: `The top lists and links${offNull}` },
    ),
  },
  { title: "AllVisits" },
);

export const DailyVisitsQuery = t.Object({
  codes: t.String({
    description: "1 to 100 short URLs, comma-separated: a code on the default domain, host/code on another",
    examples: ["Ab3dE9x,launch-day,go.example.com/promo"],
  }),
  // Checked by parseDays, whose 400 names the parameter (a schema bound's would not).
  days: t.Optional(t.String({ description: "How many UTC days, ending today: 1 to 90, default 14", examples: ["14"] })),
});

export const DailyVisits = t.Object(
  {
    from: t.String({ format: "date-time", description: "Start (UTC midnight) of the first day" }),
    to: t.String({ format: "date-time", description: "Now: the last day is today, so far" }),
    days: t.Integer({ minimum: 1, maximum: 90 }),
    analytics: Analytics,
    // Not t.Record: Elysia's response normalizer copies a Record key by key into a
    // plain object, where a code named "__proto__" (a valid alias) would vanish.
    links: t.Nullable(
      t.Object(
        {},
        {
          additionalProperties: t.Array(t.Integer({ minimum: 0 })),
          description: "Per code asked for, one count of visits (humans and bots) per UTC day, oldest first; all zeros for a code without a link or visits",
        },
      ),
      { description: `The counts per code${offNull}` },
    ),
  },
  { title: "DailyVisits" },
);

const rangeQuery = {
  from: t.Optional(t.String({ description: "ISO 8601, e.g. 2026-11-01 or 2026-11-01T00:00:00Z; default 30 days before `to`" })),
  to: t.Optional(t.String({ description: "ISO 8601; default now" })),
};

// Checked by parseVisitRange and parseReportFilters, whose 400s name the parameter.
export const VisitQuery = t.Object({
  ...rangeQuery,
  granularity: t.Optional(t.String({ description: "hour or day (default); at most a year of hours" })),
  visitors: t.Optional(t.String({ description: "Whose visits rank the top lists: all (default), humans or bots", examples: ["humans"] })),
  breakdown: t.Optional(
    t.String({ description: `With value: the series and totals count only the visits with this value, by day. One of ${dimensions.join(", ")}` }),
  ),
  value: t.Optional(t.String({ description: "With breakdown: a value its list names, e.g. DE for countries", examples: ["DE"] })),
});

/** A link's report (`GET /shorten/<code>/visits/`, its CSV): the report's query, and the link's domain. */
export const LinkVisitQuery = t.Object({ ...VisitQuery.properties, domain: domainParameter });

export const OrphanVisitQuery = t.Object({
  ...rangeQuery,
  domain: t.Optional(
    t.String({ maxLength: 260, description: "The host of one domain whose visits are counted; absent: every domain's", examples: ["go.example.com"] }),
  ),
  // Checked by parseOrphanVisitRange, whose 400 names the parameter.
  granularity: t.Optional(t.String({ description: "day (the default) only: these visits are counted per UTC day, and hour is 400" })),
});

export const OrphanVisitReport = t.Object(
  {
    ...reportFields,
    granularity: t.Literal("day"),
    series: t.Nullable(
      t.Array(t.Composite([t.Object({ t: t.String({ format: "date-time", description: "Start of the UTC day" }) }), Totals]), {
        description: `Every UTC day of the range, oldest first; 0 where nothing happened${offNull}`,
      }),
    ),
    top: t.Nullable(
      t.Object({
        referrers: TopList,
        kinds: t.Array(t.Object({ value: t.UnionEnum(orphanKinds), visits: t.Integer({ minimum: 0 }) }), {
          description: "Each kind with visits, most first: unknown (no such short URL), expired, exhausted (visit cap used up), password (wrong password)",
        }),
      }),
      { description: `The top lists${offNull}` },
    ),
  },
  { title: "OrphanVisits" },
);
