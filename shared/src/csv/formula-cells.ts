/**
 * Cells a spreadsheet would run as a formula, and how our CSV files keep
 * them text (OWASP's CSV injection rule:
 * https://owasp.org/www-community/attacks/CSV_Injection). A value that
 * starts with `=`, `+`, `-` or `@` (or their full-width forms, which
 * spreadsheets with an East Asian input take for the same), after any
 * whitespace a spreadsheet skips, or that starts with a tab or a carriage
 * return, is written with a `'` before it: the spreadsheet's own mark for
 * "this is text"; so is each piece of it after a `;`, a tab or a line
 * break that starts so, where a spreadsheet splitting on those would begin
 * a cell. A negative number as we write numbers (`-5`, `-73.98`, `-1e-7`)
 * is a number, not a formula, and stays as it is.
 *
 * The mapping is undone exactly (`restoredCell`): a `'` is taken off only
 * when what follows would read as a formula once its own leading `'`s are
 * gone, so a value that really starts with `'` before such a start (`'=1`,
 * `''-5`) gets one more on the way out, and any other `'` (`'Tis`) is left
 * alone both ways. Pure: the browser bundle imports it as it is.
 */

/** The spreadsheet's "this is text" mark. */
export const textMark = "'";

// What a spreadsheet may skip before a formula: spaces, no-break and ideographic spaces; a tab or a line break
// is not skipped but begins a cell of its own (see piecesOf), so a mark after it is never looked through.
const formulaStart = /^'*(?:[\t\r]|[^\S\t\r\n]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;
const negativeNumber = /^-(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The value cut where a spreadsheet may begin a new cell inside one of ours:
 * after a `;` or a tab (a spreadsheet told to split on those, as Excel is in
 * many locales, does not see our quotes unless a field begins with one),
 * and after a line break (a new row, then). Each piece keeps the break that
 * ends it. Marks are put at the start of pieces, never into a break, so a
 * marked value is cut at the same places.
 */
function piecesOf(value: string): string[] {
  return value.split(/(?<=[;\t\r\n])/);
}

/**
 * The value as a cell that no spreadsheet runs: each piece that would start
 * a formula gets `textMark` before it. The first piece is where the cell
 * starts however the file is split, so a negative number is judged on the
 * whole value there (`-5;x` is no number); any other piece is a cell only
 * where the file is split on its break, and judged on itself.
 */
export function neutralisedCell(value: string): string {
  return piecesOf(value)
    .map((piece, index) => {
      if (!formulaStart.test(piece)) return piece;
      const cell = index === 0 ? value : piece.replace(/[;\t\r\n]$/, "");
      return !piece.startsWith(textMark) && negativeNumber.test(cell) ? piece : textMark + piece;
    })
    .join("");
}

/** The value a cell of ours was written from: `neutralisedCell` undone, piece by piece. */
export function restoredCell(cell: string): string {
  return piecesOf(cell)
    .map((piece) => (piece.startsWith(textMark) && formulaStart.test(piece) ? piece.slice(textMark.length) : piece))
    .join("");
}
