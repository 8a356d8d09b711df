import { t } from "elysia";

/** `?domain=` of a route about one link: the host of its domain; absent, the default domain. */
export const domainParameter = t.Optional(
  t.String({ maxLength: 260, description: "The host of the link's domain; absent: the default domain", examples: ["go.example.com"] }),
);

export const DomainQuery = t.Object({ domain: domainParameter });
