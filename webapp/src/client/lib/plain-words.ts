import { ApiError } from "./api.ts";

/**
 * An API error as a sentence for a person. The API's messages name fields
 * (`long_url must be …`); here they are "the address" and "the alias".
 */
export function plainWords(error: unknown): string {
  if (!(error instanceof ApiError)) return "Something went wrong in this page. Reload it and try again.";
  switch (error.code) {
    case "network":
    case "rate_limited":
      return error.message;
    case "invalid_url":
    case "invalid_request":
    case "conflict":
      return sentence(error.message.replace(/^long_url\b/, "the address").replace(/^short_url\b/, "the alias"));
    case "not_found":
      return "This short link does not exist: it may have been deleted.";
    case "unauthorized":
    case "forbidden":
      return "You are not allowed to do this: the manage token or the admin session is missing, wrong or expired.";
  }
  if (error.status === 502 || error.status === 503 || error.status === 504) return "The service is not available right now. Try again in a moment.";
  return sentence(`the server refused: ${error.message}`);
}

/** Which field of a link form an error is about, if any. */
export function fieldOf(error: unknown): "url" | "alias" | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === "invalid_url") return "url";
  if (error.code === "conflict" || /^short_url\b/.test(error.message)) return "alias";
  return null;
}

function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
