/**
 * Cells a spreadsheet would run as a formula, and how our CSV files keep
 * them text (OWASP's CSV injection rule:
 * https://owasp.org/www-community/attacks/CSV_Injection). A value that
 * starts with `=`, `+`, `-` or `@` (or their full-width forms, which
 * spreadsheets with an East Asian input take for the same), after any
 * whitespace a spreadsheet skips, or that starts with a tab or a carriage
 * return, is written with a `'` before it: the spreadsheet's own mark for
 * "this is text". A negative number as we write numbers (`-5`, `-73.98`,
 * `-1e-7`) is a number, not a formula, and stays as it is.
 *
 * The mapping is undone exactly (`restoredCell`): a `'` is taken off only
 * when what follows would read as a formula once its own leading `'`s are
 * gone, so a value that really starts with `'` before such a start (`'=1`,
 * `''-5`) gets one more on the way out, and any other `'` (`'Tis`) is left
 * alone both ways. Pure: the browser bundle imports it as it is.
 */

/** The spreadsheet's "this is text" mark. */
export const textMark = "'";

// \s skips what a spreadsheet may skip before a formula: spaces, line breaks, no-break and ideographic spaces.
const formulaStart = /^'*(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;
const negativeNumber = /^-(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** The value as a cell that no spreadsheet runs: as it is, or with `textMark` before it. */
export function neutralisedCell(value: string): string {
  if (!formulaStart.test(value)) return value;
  if (!value.startsWith(textMark) && negativeNumber.test(value)) return value;
  return textMark + value;
}

/** The value a cell of ours was written from: `neutralisedCell` undone. */
export function restoredCell(cell: string): string {
  return cell.startsWith(textMark) && formulaStart.test(cell) ? cell.slice(textMark.length) : cell;
}
