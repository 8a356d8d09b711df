/** A link record's option fields when none was set, and no workspace: what a reader of a plain link's record sees besides its URL and counts. */
export const unsetOptions = {
  expires_at: null,
  max_visits: null,
  expired_url: null,
  redirect_status: null,
  password_protected: false,
  tags: [],
  title: null,
  forward_query: false,
  rules: [],
  state: "active",
  hold_reason: null,
  public_stats: false,
  workspace: null,
} as const;

/** The fields of a record anyone may read (docs/people.md: "Private by default"): the options are left out for anyone else. */
const publicFields = ["short_url", "domain", "long_url", "link", "access_count", "created_at", "updated_at", "public_stats", "workspace"] as const;

/** `record` (as its reader read it) as anyone else reads it: its public fields, and no workspace. */
export function publicPartOf(record: Record<string, unknown>): Record<string, unknown> {
  return { ...Object.fromEntries(publicFields.map((field) => [field, record[field]])), workspace: null };
}
