import { describe, expect, test } from "bun:test";
import { createLogger, type LogFormat } from "../src/core/logger.ts";

const at = () => new Date("2026-11-23T10:11:12.000Z");

function logged(format: LogFormat, message: string, fields: Record<string, unknown>): string[] {
  const lines: string[] = [];
  createLogger({ service: "test", level: "info", format, clock: at, write: (line) => lines.push(line) }).info(message, fields);
  return lines;
}

describe("log lines", () => {
  const hostile = "/x\n10:11:12 ERROR gateway  forged line\r\u001b[31mred\u0000\u0085\u2028end";

  test("pretty: a client's control characters are escaped, so one event stays one line", () => {
    const lines = logged("pretty", `request ${hostile}`, { path: hostile, nested: { value: hostile } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split("\n")).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(lines[0]).toBe(
      "10:11:12 INFO  test  request /x\\n10:11:12 ERROR gateway  forged line\\r\\u001b[31mred\\u0000\\u0085\\u2028end" +
        "  path=/x\\n10:11:12 ERROR gateway  forged line\\r\\u001b[31mred\\u0000\\u0085\\u2028end" +
        ' nested={"value":"/x\\n10:11:12 ERROR gateway  forged line\\r\\u001b[31mred\\u0000\\u0085\\u2028end"}',
    );
  });

  test("json: one line that parses back to the same text", () => {
    const lines = logged("json", "request", { path: hostile });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split("\n")).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ path: hostile, time: "2026-11-23T10:11:12.000Z", level: "info", service: "test", msg: "request" });
  });
});
