/** The request's media type: lower case, without parameters; undefined without a Content-Type. */
export function mediaTypeOf(request: Request): string | undefined {
  return request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
}

/** `application/json` or any `…+json`. */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  return mediaType === "application/json" || mediaType?.endsWith("+json") === true;
}
