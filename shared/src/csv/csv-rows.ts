/** A row that could not be read (broken quoting, too long): reported with the line it starts on, never fatal. */
export interface CsvProblem {
  line: number;
  problem: string;
}

/** One row of a CSV file: its fields, and the line it starts on (1-based, as an editor counts). */
export interface CsvRow {
  line: number;
  fields: string[];
}

/** Longer rows are reported, not kept: no link has that much to say, and memory stays bounded whatever the file holds. */
export const maxRowLength = 65_536;

const quote = 0x22;
const comma = 0x2c;
const cr = 0x0d;
const lf = 0x0a;
const byteOrderMark = "\uFEFF";

const unclosedQuote = "a quoted field opened on this line is never closed";
const textAfterQuote = 'a quoted field has text after its closing quote (a quote inside one is written "")';
const rowTooLong = `the row is longer than ${maxRowLength} characters`;
const notReadAgain = "; the lines it swallowed are skipped, not read again: the file has more broken quotes than can be read again";

type State = "fieldStart" | "unquoted" | "quoted" | "quoteSeen" | "skipLine";

/**
 * An RFC 4180 reader fed with text as it arrives, in pieces cut anywhere:
 * comma-separated fields, quoted with `"` (`""` inside), line breaks
 * CRLF, LF or CR, a UTF-8 byte order mark skipped. Blank lines are no rows.
 *
 * A broken row never stops the file: it is reported at the line it starts
 * on and reading goes on at the next line. When a quote opened in a row is
 * never closed properly, the lines it swallowed are read again as rows of
 * their own (they are kept for that, at most `maxRowLength` of them), so
 * one stray quote costs one row, not the rest of the file. Reading again
 * is bounded: in all, no more than the text up to the broken row and one
 * longest row, so a file with a broken quote on every line costs time in
 * proportion to its length, not its square; past that, a broken row's
 * swallowed lines are skipped, and the report says so. The bound counts
 * places in the file, so the rows are the same wherever the text is cut.
 *
 * Hand-written rather than csv-parse: that parser counts a CRLF inside a
 * quoted field as two lines and, after a broken quote, reads the rest of
 * the file as one field; both are what an import report must get right.
 */
export class CsvRowReader {
  private line = 1;
  private rowLine = 1;
  private fields: string[] = [];
  private field = "";
  private rowLength = 0;
  private state: State = "fieldStart";
  /** The row's text after its first line break, while a quoted field spans lines: read again if the quote proves broken. */
  private spanned: string | null = null;
  /** A CR ending the last piece, until the next one says whether an LF follows. */
  private pendingCr = "";
  private started = false;
  /** Where the next piece starts in the file (characters, after a byte order mark). */
  private scanned = 0;
  /** Where `spanned` starts in the file. */
  private spannedStart = 0;
  /** Characters read again so far after broken quotes. */
  private readAgain = 0;

  /** The rows completed by this piece of text (rows and problems, in file order). */
  read(piece: string): Array<CsvRow | CsvProblem> {
    let text = this.pendingCr + piece;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith(byteOrderMark)) text = text.slice(byteOrderMark.length);
    }
    this.pendingCr = text.endsWith("\r") ? "\r" : "";
    return this.scanNew(this.pendingCr ? text.slice(0, -1) : text);
  }

  private scanNew(text: string): Array<CsvRow | CsvProblem> {
    const start = this.scanned;
    this.scanned += text.length;
    return this.scan(text, start);
  }

  /** The last rows, once the text has ended. */
  finish(): Array<CsvRow | CsvProblem> {
    const rows = this.scanNew(this.pendingCr);
    this.pendingCr = "";
    let replay: string | null;
    while (this.state === "quoted" && (replay = this.abandonRow(rows, unclosedQuote, "", this.scanned)) !== null) {
      rows.push(...this.scan(replay, this.spannedStart));
    }
    const unfinished = this.state === "unquoted" || this.state === "quoteSeen" || (this.state === "fieldStart" && this.fields.length > 0);
    if (unfinished) this.endRow(rows);
    this.startRow();
    return rows;
  }

  /** Reads `input`, which starts at `start` in the file. */
  private scan(input: string, start: number): Array<CsvRow | CsvProblem> {
    const rows: Array<CsvRow | CsvProblem> = [];
    let text = input;
    let textStart = start;
    let i = 0;
    // Where this text starts adding to `spanned`.
    let spannedFrom = 0;
    const abandon = (problem: string): void => {
      const replay = this.abandonRow(rows, problem, this.spanned === null ? "" : text.slice(spannedFrom), textStart + i);
      if (replay === null) return;
      text = replay;
      textStart = this.spannedStart;
      i = 0;
      spannedFrom = 0;
    };
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (this.state === "fieldStart") {
        if (c === quote) {
          this.state = "quoted";
          i++;
        } else {
          this.state = "unquoted";
        }
      } else if (this.state === "unquoted") {
        const end = nextOf(text, i, "comma");
        this.take(text.slice(i, end));
        i = end;
        if (this.rowLength > maxRowLength) abandon(rowTooLong);
        else if (i === text.length) break;
        else if (text.charCodeAt(i) === comma) {
          this.endField();
          i++;
        } else {
          i = this.lineBreak(rows, text, i);
        }
      } else if (this.state === "quoted") {
        const end = nextOf(text, i, "quote");
        this.take(text.slice(i, end));
        i = end;
        if (this.rowLength > maxRowLength) abandon(rowTooLong);
        else if (i === text.length) break;
        else if (text.charCodeAt(i) === quote) {
          this.state = "quoteSeen";
          i++;
        } else {
          const length = breakLength(text, i);
          this.take(text.slice(i, i + length));
          i += length;
          this.line++;
          if (this.spanned === null) {
            this.spanned = "";
            spannedFrom = i;
            this.spannedStart = textStart + i;
          }
        }
      } else if (this.state === "quoteSeen") {
        if (c === quote) {
          this.take('"');
          this.state = "quoted";
          i++;
        } else if (c === comma) {
          this.endField();
          i++;
        } else if (c === cr || c === lf) {
          i = this.lineBreak(rows, text, i);
        } else {
          abandon(textAfterQuote);
        }
      } else {
        const end = nextOf(text, i, "lineBreak");
        if (end === text.length) break;
        i = end + breakLength(text, end);
        this.line++;
        this.startRow();
      }
    }
    if (this.spanned !== null) this.spanned += text.slice(spannedFrom);
    return rows;
  }

  private take(text: string): void {
    this.field += text;
    this.rowLength += text.length;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = "";
    this.state = "fieldStart";
  }

  private endRow(rows: Array<CsvRow | CsvProblem>): void {
    this.endField();
    const blank = this.fields.length === 1 && this.fields[0] === "";
    if (!blank) rows.push({ line: this.rowLine, fields: this.fields });
    this.startRow();
  }

  private startRow(): void {
    this.fields = [];
    this.field = "";
    this.rowLength = 0;
    this.spanned = null;
    this.rowLine = this.line;
    this.state = "fieldStart";
  }

  /** Ends the row at the line break at `i`; returns where the next row starts. */
  private lineBreak(rows: Array<CsvRow | CsvProblem>, text: string, i: number): number {
    const next = i + breakLength(text, i);
    this.line++;
    this.endRow(rows);
    return next;
  }

  /**
   * Reports the row at the line it starts on, and goes on at the next line.
   * A row on one line has the rest of that line skipped (null). A row that
   * spans lines has them read again: returns its text after its first line
   * break (`spanned`, then `rest`, what followed in the current piece),
   * unless what was read again after broken quotes would then pass
   * `brokenAt` (where in the file the row broke) and one longest row: its
   * lines are then skipped (null, reading on at the next line).
   */
  private abandonRow(rows: Array<CsvRow | CsvProblem>, problem: string, rest: string, brokenAt: number): string | null {
    const again = brokenAt - this.spannedStart;
    const readAgain = this.spanned !== null && this.readAgain + again <= brokenAt + maxRowLength;
    rows.push({ line: this.rowLine, problem: this.spanned !== null && !readAgain ? problem + notReadAgain : problem });
    if (!readAgain) {
      this.startRow();
      this.state = "skipLine";
      return null;
    }
    this.readAgain += again;
    const replay = this.spanned + rest;
    this.line = this.rowLine + 1;
    this.startRow();
    return replay;
  }
}

type Stop = "comma" | "quote" | "lineBreak";

/** The index of the next line break, or of the next `stop` before it, or the end of `text`. */
function nextOf(text: string, from: number, stop: Stop): number {
  const stopCode = stop === "comma" ? comma : stop === "quote" ? quote : -1;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === cr || c === lf || c === stopCode) return i;
  }
  return text.length;
}

function breakLength(text: string, i: number): number {
  return text.charCodeAt(i) === cr && text.charCodeAt(i + 1) === lf ? 2 : 1;
}

/** Every row of a CSV text that arrives in pieces, in constant memory. */
export async function* readCsvRows(pieces: AsyncIterable<string>): AsyncGenerator<CsvRow | CsvProblem> {
  const reader = new CsvRowReader();
  for await (const piece of pieces) yield* reader.read(piece);
  yield* reader.finish();
}

/** The fields of one line of CSV (a header line, say), read by the same rules. */
export function splitCsvLine(line: string): string[] {
  const reader = new CsvRowReader();
  const [first] = [...reader.read(line), ...reader.finish()];
  return first !== undefined && "fields" in first ? first.fields : [];
}
