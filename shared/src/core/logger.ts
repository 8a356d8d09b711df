export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "json" | "pretty";
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  service: string;
  level: LogLevel;
  format: LogFormat;
  /** Where lines go; tests pass an array's push. */
  write?: (line: string) => void;
  clock?: () => Date;
}

/** One line per event: JSON in production, `HH:MM:SS LEVEL service message k=v` otherwise. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const clock = options.clock ?? (() => new Date());
  const threshold = rank[options.level];

  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (rank[level] < threshold) return;
    const time = clock();
    if (options.format === "json") {
      // The event's own fields come first so they can never overwrite these.
      write(JSON.stringify({ ...fields, time: time.toISOString(), level, service: options.service, msg: message }));
      return;
    }
    const extras = Object.entries(fields)
      .map(([key, value]) => `${key}=${escapeControls(typeof value === "string" ? value : String(JSON.stringify(value)))}`)
      .join(" ");
    const clockTime = time.toISOString().slice(11, 19);
    write(`${clockTime} ${level.toUpperCase().padEnd(5)} ${options.service}  ${escapeControls(message)}${extras ? `  ${extras}` : ""}`);
  };

  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
  };
}

// C0 and C1 control characters, DEL, and Unicode's line and paragraph
// separators: text a client chose (a path, a header) must not start a new
// log line that looks like ours, nor recolour the terminal.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const shortEscapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` with every control character written as an escape (`\n`, `\u001b`). */
export function escapeControls(text: string): string {
  return text.replace(controlCharacter, (c) => shortEscapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A logger that keeps nothing: for tests that do not look at logs. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The message of anything thrown, for a log line (never sent to a client). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
