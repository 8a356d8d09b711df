import { ErrorBody, maxBulkItems, querySchema } from "@linkgeo/shared";
import { t, type Static, type TSchema } from "elysia";
import { noControlCharacters } from "../http/plain-text.ts";
import { maxVisitsLimit, ruleDevices } from "./link-options.ts";
import { maxBulkPasswords } from "./link-service.ts";

const hiddenWithoutPassword =
  "null when the link has a password and the caller may not read the link (its manage token, a member of its workspace, an admin, a key with links:read)";

const RuleCondition = t.Object(
  {
    device: t.Optional(
      t.UnionEnum(ruleDevices, {
        description: "ios, android (by OS) or mobile, tablet, desktop (by kind)",
      }),
    ),
    country: t.Optional(t.String({ description: "ISO 3166-1 alpha-2, from the visitor's address (offline IP data)", examples: ["DE"] })),
    language: t.Optional(t.String({ description: "Primary language tag, matched against the visitor's most preferred Accept-Language", examples: ["de"] })),
  },
  { additionalProperties: false, description: "Every condition given must hold; at least one" },
);

const RuleRecord = t.Object({ when: RuleCondition, url: t.String({ description: "Where matching visitors go" }) }, { title: "LinkRule" });

/** The options of a link as records show them (docs/api.md: "Link options"). */
const OptionFields = {
  expires_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "After it, the link no longer leads to long_url" }),
  max_visits: t.Union([t.Integer({ minimum: 1, maximum: maxVisitsLimit }), t.Null()], {
    description: "Counted redirects allowed, exactly, across all replicas",
  }),
  expired_url: t.Union([t.String(), t.Null()], { description: "Where visitors go once the link is expired or used up (else 410)" }),
  redirect_status: t.Union([t.Literal(301), t.Literal(302), t.Literal(307), t.Literal(308), t.Null()], {
    description: "This link's redirect status; null: the service default",
  }),
  password_protected: t.Boolean({ description: "Visitors must give the link's password (POST it to the short URL)" }),
  tags: t.Array(t.String(), { description: "Lower-case tags (a-z 0-9 _ -), for the listing's ?tag= filter" }),
  title: t.Union([t.String(), t.Null()], { description: "The owner's own title; never fetched from the target" }),
  forward_query: t.Boolean({ description: "The short URL's query string is added to the destination" }),
  rules: t.Array(RuleRecord, { description: "First match wins; no match: long_url" }),
  state: t.Union([t.Literal("active"), t.Literal("expired"), t.Literal("exhausted"), t.Literal("quarantined"), t.Literal("disabled")], {
    description:
      "Read-only: expired past expires_at, exhausted once max_visits are used; quarantined (visitors see a warning) or disabled (gone) " +
      "when a threat list named its destination or an admin acted on a report",
  }),
  hold_reason: t.Union([t.String(), t.Null()], {
    description: "Read-only: why the link is quarantined or disabled (the threat list that named its destination, banned, or report); null otherwise",
    examples: [null],
  }),
  public_stats: t.Boolean({ description: "Anyone may read the link's visits report (GET /shorten/<code>/visits/), not only those who may read the link" }),
};

/** A link's options as its readers see them. */
const LinkOptionsRecord = t.Object(OptionFields);
export type LinkOptionsRecord = Static<typeof LinkOptionsRecord>;

/** What only those who may read a link see (docs/people.md: "Private by default"): to anyone else each option is absent. */
const privately = <T extends TSchema>(schema: T) =>
  t.Optional({
    ...schema,
    description: `${schema.description ?? ""}. Absent unless the reader may read the link (its manage token, its workspace, an admin, a key with links:read)`,
  });
const PrivateOptionFields = {
  expires_at: privately(OptionFields.expires_at),
  max_visits: privately(OptionFields.max_visits),
  expired_url: privately(OptionFields.expired_url),
  redirect_status: privately(OptionFields.redirect_status),
  password_protected: privately(OptionFields.password_protected),
  tags: privately(OptionFields.tags),
  title: privately(OptionFields.title),
  forward_query: privately(OptionFields.forward_query),
  rules: privately(OptionFields.rules),
  state: privately(OptionFields.state),
  hold_reason: privately(OptionFields.hold_reason),
} satisfies Record<Exclude<keyof typeof OptionFields, "public_stats">, TSchema>;

/** What a record shows anyone: the seed's fields and the domain. */
const PublicFields = {
  short_url: t.String({ examples: ["Ab3dE9x"] }),
  domain: t.String({ description: "The host of the link's domain: the code is unique on it", examples: ["localhost"] }),
  long_url: t.Union([t.String({ examples: ["https://example.com/a"] }), t.Null()], { description: `The destination; ${hiddenWithoutPassword}` }),
  link: t.String({ description: "The short link to share", examples: ["http://localhost:8080/Ab3dE9x/"] }),
  access_count: t.Integer({ minimum: 0 }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
};

const WorkspaceField = t.Union([t.Integer(), t.Null()], {
  description: "The workspace the link belongs to; null for a link of none, and to anyone who may not read the link (docs/people.md)",
});

export const LinkRecord = t.Object(
  {
    ...PublicFields,
    ...PrivateOptionFields,
    // Anyone may read an open report, so anyone may know it is open: a link's page offers it without a credential.
    public_stats: OptionFields.public_stats,
    workspace: WorkspaceField,
  },
  { title: "ShortUrl" },
);
export type LinkRecord = Static<typeof LinkRecord>;

export const CreatedLink = t.Composite(
  [
    LinkRecord,
    t.Object({
      manage_token: t.Union([t.String(), t.Null()], {
        description:
          "Shown once: send it as `Authorization: Bearer …` to update or delete this link. Null for a key with links:create alone, which makes links and nothing else",
      }),
    }),
  ],
  { title: "CreatedShortUrl" },
);

// The options as a client sends them: types here, each value's rule in parseOptions (a 400 naming the field).
const OptionInputs = {
  expires_at: t.Optional(t.Union([t.String({ description: "ISO 8601 with a zone; not already past when creating" }), t.Null()])),
  max_visits: t.Optional(t.Union([t.Number({ description: `1 to ${maxVisitsLimit}` }), t.Null()])),
  expired_url: t.Optional(t.Union([t.String({ description: "Same rules as long_url" }), t.Null()])),
  redirect_status: t.Optional(t.Union([t.Number({ description: "301, 302, 307 or 308" }), t.Null()])),
  password: t.Optional(t.Union([t.String({ description: "Write-only: 8 to 128 characters, no control characters; stored as an argon2id hash" }), t.Null()])),
  tags: t.Optional(t.Union([t.Array(t.String(), { description: "Up to 10, each 1 to 32 of a-z 0-9 _ - (lower-cased)" }), t.Null()])),
  title: t.Optional(t.Union([t.String({ description: "Up to 200 characters, no control characters" }), t.Null()])),
  forward_query: t.Optional(t.Boolean()),
  public_stats: t.Optional(t.Boolean({ description: "true: anyone may read the link's visits report" })),
  // Each rule is checked by parseOptions, not here: the schema would drop a key it does not know (Elysia's
  // normalising), where an unknown key must be a 400, and its union errors would not name the field.
  rules: t.Optional(
    t.Union([
      t.Array(t.Unknown(), {
        description:
          'Up to 20 of {"when": {"device"?, "country"?, "language"?}, "url"}, as records show them; first match wins. ' +
          "device: ios, android, mobile, tablet or desktop; country: ISO 3166-1 alpha-2; language: a primary tag (de); url: same rules as long_url",
        examples: [
          [
            { when: { device: "ios" }, url: "https://apps.apple.com/app/id1" },
            { when: { country: "DE", language: "de" }, url: "https://example.de/" },
          ],
        ],
      }),
      t.Null(),
    ]),
  ),
};

const readOnly = t.Optional(t.Unknown({ description: "Read-only: accepted and ignored, so a record read may be sent back as it is" }));

/**
 * What a record (or a listing's, or a create's answer) shows but no request
 * sets: accepted with any value and ignored, so a client may send back what
 * it read. Any other field a body does not declare is a 400 naming it
 * (refuseUnknownFields): a misspelled option must not be a silent no-op.
 */
const ReadOnlyInputs = {
  link: readOnly,
  access_count: readOnly,
  created_at: readOnly,
  updated_at: readOnly,
  last_accessed_at: readOnly,
  password_protected: readOnly,
  state: readOnly,
  hold_reason: readOnly,
  manage_token: readOnly,
};

// Field types are checked here; what makes a URL, an alias or an option acceptable is
// checked by the service, which answers invalid_url or invalid_request naming the field.
export const CreateLinkBody = t.Object(
  {
    long_url: t.String({ description: "Absolute http(s) URL, at most 2048 characters" }),
    short_url: t.Optional(t.String({ description: "Custom alias: 3–32 of A-Z a-z 0-9 _ -, not a reserved word" })),
    domain: t.Optional(
      t.String({ maxLength: 260, description: "The host of an added domain (GET /admin/domains), or the default one's; absent: the default domain" }),
    ),
    workspace: t.Optional(
      t.Union([t.Integer(), t.String({ maxLength: 12 }), t.Null()], {
        description:
          "The workspace the link goes into (its id, GET /workspaces): a member's, or any for an admin. A member in one workspace may leave it out; " +
          "a workspace's API key makes its links there. Absent with no credential: a link of no workspace",
      }),
    ),
    ...OptionInputs,
    ...ReadOnlyInputs,
  },
  { additionalProperties: false, description: "An unknown field is a 400 naming it" },
);

const bulkExample = {
  links: [
    { long_url: "https://example.com/spring-sale", short_url: "spring-sale", tags: ["campaign"] },
    { long_url: "https://example.com/docs", expires_at: "2027-01-01T00:00:00Z" },
    { long_url: "ftp://example.com/file" },
  ],
};

/**
 * A bulk create: each item is checked as the body of POST /shorten/ alone
 * (BulkItem), so a bad item is answered in its place rather than refusing
 * the request; the schema here checks only the list.
 */
export const BulkCreateBody = t.Object(
  {
    links: t.Array(t.Unknown({ description: "The body of POST /shorten/: long_url, short_url and any link option" }), {
      maxItems: maxBulkItems,
      description: `Up to ${maxBulkItems} links, each exactly the body of POST /shorten/; at most ${maxBulkPasswords} of them with a password`,
    }),
  },
  { additionalProperties: false, examples: [bulkExample] },
);

/** One item's answer: 201 with the created record (and its manage token), or the 400 or 409 the same create alone would have met. */
export const BulkCreateResult = t.Union(
  [
    t.Object({ status: t.Literal(201), record: CreatedLink }),
    t.Object({ status: t.Integer({ description: "400 (invalid_url, invalid_request) or 409 (conflict)", examples: [409] }), ...ErrorBody.properties }),
  ],
  { title: "BulkCreateResult" },
);

export const BulkCreated = t.Object(
  {
    results: t.Array(BulkCreateResult, {
      description: "One per item, in the order of links",
      examples: [
        [
          { status: 201, record: { short_url: "spring-sale", long_url: "https://example.com/spring-sale", manage_token: "…" } },
          { status: 409, error: { code: "conflict", message: 'short_url "spring-sale" is already taken' } },
          { status: 400, error: { code: "invalid_url", message: "long_url must be an http or https URL" } },
        ],
      ],
    }),
  },
  { title: "BulkCreateResults" },
);

/** A change: each field given is set (null clears an option), each absent one stays; a record read may be sent back whole. */
export const UpdateLinkBody = t.Object(
  {
    long_url: t.Optional(t.String({ description: "Absolute http(s) URL, at most 2048 characters" })),
    short_url: t.Optional(t.String({ description: "Read-only: the link's own code is accepted and ignored; another is a 400 (a link is never renamed)" })),
    domain: t.Optional(
      t.String({ maxLength: 260, description: "Read-only: the link's own domain is accepted and ignored; another is a 400 (a link never moves)" }),
    ),
    workspace: t.Optional(
      t.Union([t.Integer(), t.String({ maxLength: 12 }), t.Null()], {
        description: "An admin moves the link into this workspace (its id), or out of any (null); for anyone else the link's own or null, accepted and ignored",
      }),
    ),
    ...OptionInputs,
    ...ReadOnlyInputs,
  },
  { additionalProperties: false, description: "An unknown field is a 400 naming it" },
);

export const LinkStats = t.Object(
  {
    short_url: t.String(),
    access_count: t.Integer({ minimum: 0 }),
    last_accessed_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
    // As the record says them, to those who may read the link: a list of links (the web app's Your links) badges each without reading each record.
    state: PrivateOptionFields.state,
    password_protected: PrivateOptionFields.password_protected,
  },
  { title: "ShortUrlStats" },
);
export type LinkStats = Static<typeof LinkStats>;

export const LinkListQuery = querySchema({
  // A million pages of 100 is far past any real listing, and keeps the offset a safe integer.
  page: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20 })),
  q: t.Optional(
    t.String({ maxLength: 200, pattern: noControlCharacters, description: "Substring of the code or the long URL, any case; no control characters" }),
  ),
  // Checked by parseLinkOrder, whose 400 names the values (a schema union's would not).
  sort: t.Optional(
    t.String({
      description:
        "newest (default): created_at, newest first; most_visited: access_count, most first; " +
        "last_visited: last_accessed_at, latest first, never-visited links last. Ties: newest first",
      examples: ["newest", "most_visited", "last_visited"],
    }),
  ),
  domain: t.Optional(t.String({ maxLength: 260, description: "Only the links of this domain (its host)", examples: ["go.example.com"] })),
  workspace: t.Optional(
    t.String({ maxLength: 12, description: "Only the links of this workspace (its id): a member's own, or any for an admin", examples: ["1"] }),
  ),
  // Checked by parseTag and parseLinkState, whose 400s name the rule and the values.
  tag: t.Optional(t.String({ description: "Only links with this tag: 1 to 32 of a-z 0-9 _ - (any case; tags are lower case)", examples: ["launch"] })),
  state: t.Optional(
    t.String({
      description: "Only links in this state now: active, expired (past expires_at), exhausted (max_visits used), quarantined or disabled",
      examples: ["active", "expired", "exhausted", "quarantined"],
    }),
  ),
});

/**
 * A record in a listing: a listing shows only links its caller may read, so
 * every option is there; it also says when the link was last followed (an
 * admin's table shows it without asking each link's stats).
 */
export const ListedLink = t.Object(
  { ...PublicFields, ...OptionFields, workspace: WorkspaceField, last_accessed_at: t.Union([t.String({ format: "date-time" }), t.Null()]) },
  { title: "ListedShortUrl" },
);
export type ListedLink = Static<typeof ListedLink>;

export const LinkList = t.Object(
  {
    count: t.Integer({ minimum: 0, description: "Links matching, across all pages: exact up to 10,000, an estimate past it" }),
    count_is_estimate: t.Boolean({ description: "True when count is an estimate (more than 10,000 links match)" }),
    next: t.Union([t.String(), t.Null()]),
    previous: t.Union([t.String(), t.Null()]),
    results: t.Array(ListedLink),
  },
  { title: "ShortUrlPage" },
);

export const CodeParams = t.Object({ short_url: t.String() });

/** How many links one `POST /shorten/stats/` may ask about: a browser's "Your links" in one request. */
export const maxStatsCodes = 500;

export const ManyStatsBody = t.Object(
  {
    short_urls: t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: maxStatsCodes }),
    manage_tokens: t.Optional(
      t.Array(t.String({ maxLength: 64 }), {
        maxItems: maxStatsCodes,
        description: "Manage tokens of some of these links (the web app's Your links): a link whose token is here answers its state and password_protected too",
      }),
    ),
  },
  { title: "ManyStatsRequest" },
);

export const ManyStats = t.Object({ results: t.Array(LinkStats) }, { title: "ManyStats" });
