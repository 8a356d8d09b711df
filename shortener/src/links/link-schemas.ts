import { t, type Static } from "elysia";
import { noControlCharacters } from "../http/plain-text.ts";

export const LinkRecord = t.Object(
  {
    short_url: t.String({ examples: ["Ab3dE9x"] }),
    long_url: t.String({ examples: ["https://example.com/a"] }),
    link: t.String({ description: "The short link to share", examples: ["http://localhost:8080/Ab3dE9x/"] }),
    access_count: t.Integer({ minimum: 0 }),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
  },
  { title: "ShortUrl" },
);
export type LinkRecord = Static<typeof LinkRecord>;

export const CreatedLink = t.Composite(
  [
    LinkRecord,
    t.Object({
      manage_token: t.String({ description: "Shown once: send it as `Authorization: Bearer …` to update or delete this link" }),
    }),
  ],
  { title: "CreatedShortUrl" },
);

// Field types are checked here; what makes a URL or an alias acceptable is
// checked by the service, which answers invalid_url or invalid_request.
export const CreateLinkBody = t.Object({
  long_url: t.String({ description: "Absolute http(s) URL, at most 2048 characters" }),
  short_url: t.Optional(t.String({ description: "Custom alias: 3–32 of A-Z a-z 0-9 _ -, not a reserved word" })),
});

export const UpdateLinkBody = t.Object({
  long_url: t.String({ description: "Absolute http(s) URL, at most 2048 characters" }),
});

export const LinkStats = t.Object(
  {
    short_url: t.String(),
    access_count: t.Integer({ minimum: 0 }),
    last_accessed_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
  },
  { title: "ShortUrlStats" },
);

export const LinkListQuery = t.Object({
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
});

/** A record in a listing also says when the link was last followed: an admin's table shows it without asking each link's stats. */
export const ListedLink = t.Composite([LinkRecord, t.Object({ last_accessed_at: t.Union([t.String({ format: "date-time" }), t.Null()]) })], {
  title: "ListedShortUrl",
});
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
