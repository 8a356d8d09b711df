/** A link record's option fields when none was set, and no workspace: what every record of a plain link shows besides its URL and counts. */
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
  workspace: null,
} as const;
