import { neutralisedCell } from "./formula-cells.ts";

/**
 * One field as RFC 4180 writes it, made safe to open in a spreadsheet: a
 * value that would run as a formula gets a `'` before it (formula-cells.ts),
 * and the field is in double quotes, each double quote doubled, when it
 * holds a comma, a double quote, CR or LF, or was so marked. A semicolon or
 * a tab is quoted too: a spreadsheet set to split on those (as Excel is in
 * many locales) would otherwise start a new cell inside the field, where a
 * formula could begin (OWASP's note on separators).
 */
export function csvField(value: string): string {
  const cell = neutralisedCell(value);
  return cell !== value || /[",;\t\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One record, fields joined by commas, ended by CRLF (RFC 4180, section 2). */
export function csvRow(fields: readonly string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
