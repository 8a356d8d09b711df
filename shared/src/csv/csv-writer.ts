/**
 * One field as RFC 4180 writes it: as it is, or, when it holds a comma, a
 * double quote, CR or LF, in double quotes with each double quote doubled.
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, fields joined by commas, ended by CRLF (RFC 4180, section 2). */
export function csvRow(fields: readonly string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
