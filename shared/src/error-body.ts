import { t, type Static } from "elysia";

/** The API's error shape (README: "API"), used by every non-2xx JSON response. */
export const ErrorBody = t.Object(
  {
    error: t.Object(
      {
        code: t.String({ examples: ["invalid_url"] }),
        message: t.String({ examples: ["long_url must be an http or https URL"] }),
      },
      { additionalProperties: true },
    ),
  },
  { title: "Error" },
);
export type ErrorBody = Static<typeof ErrorBody>;

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, ...details } };
}
