/**
 * JSON Schema pattern of a string without control characters (C0, DEL and
 * C1). Postgres refuses a NUL in text (a 500 before this check), and an
 * escape sequence has no business in a name or a search.
 */
export const noControlCharacters = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";
