import { t, type Static } from "elysia";
import { type ErrorCode, errorCodes } from "../wire/error-codes.ts";

/** The API's error shape (docs/api.md: "Errors"), used by every non-2xx JSON response. */
export const ErrorBody = t.Object(
  {
    error: t.Object(
      {
        code: t.UnionEnum(errorCodes, { default: undefined, description: "stable: a client may switch on it", examples: ["invalid_url"] }),
        message: t.String({ examples: ["long_url must be an http or https URL"] }),
      },
      { additionalProperties: true },
    ),
  },
  { title: "Error" },
);
export type ErrorBody = Static<typeof ErrorBody>;

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, ...details } };
}
