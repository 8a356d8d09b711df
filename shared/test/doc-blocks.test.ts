import { describe, expect, test } from "bun:test";
import { commandsOf, outputMatches, saysNothing, shellBlocksOf } from "@linkgeo/testing";

describe("shellBlocksOf", () => {
  test("finds the shell blocks with their lines, and tells the no-run ones", () => {
    const page = [
      "# Title",
      "",
      "```sh",
      "echo one",
      "```",
      "",
      "```json",
      "{}",
      "```",
      "",
      "```sh no-run",
      "bun run start",
      "```",
      "  ```bash",
      "  echo indented",
      "  ```",
    ].join("\n");
    const blocks = shellBlocksOf("page.md", page);
    expect(blocks.map(({ line, runs, commands }) => ({ line, runs, commands: commands.map((command) => command.text) }))).toEqual([
      { line: 3, runs: true, commands: ["echo one"] },
      { line: 11, runs: false, commands: ["bun run start"] },
      { line: 14, runs: true, commands: ["echo indented"] },
    ]);
    expect(blocks[0]!.commands[0]!.line).toBe(4);
  });
});

describe("commandsOf", () => {
  test("a comment right under a command is its output; after a blank line it is prose", () => {
    const commands = commandsOf(["# prose before", "echo '{\"a\": 1}'   # an inline note", '# {"a": 1}', "", "# prose after", "true"]);
    expect(commands).toEqual([
      { line: 2, text: "echo '{\"a\": 1}'   # an inline note", output: '{"a": 1}' },
      { line: 6, text: "true" },
    ]);
  });

  test("several output lines keep their order and their lines", () => {
    expect(commandsOf(["printf 'a\\nb\\n'", "# a", "#  b", "#"])[0]!.output).toBe("a\n b\n");
  });

  test("a command goes on after a trailing backslash, pipe or &&, and while a quote is open", () => {
    const lines = [
      "curl -s -X POST x \\",
      "     -d '{",
      '  "long_url": "https://example.com/#not-a-comment"}\' |',
      "  jq .short_url &&",
      "  echo done",
      '# "…"',
      'echo "a # b"',
    ];
    const commands = commandsOf(lines);
    expect(commands.map((command) => command.text)).toEqual([lines.slice(0, 5).join("\n"), 'echo "a # b"']);
    expect(commands[0]!.output).toBe('"…"');
  });

  test("a quote left open at the end of the block is the writer's mistake, named by line", () => {
    expect(() => commandsOf(["echo fine", "echo 'never closed"], 10)).toThrow("line 11: the command does not end");
  });
});

describe("outputMatches", () => {
  test("ignores whitespace, so a page may space a JSON answer out", () => {
    expect(outputMatches('{"a": 1,\n "b": [1, 2]}', '{"a":1,"b":[1,2]}\n')).toBe(true);
  });

  test("… stands for any text, across lines too", () => {
    expect(outputMatches('{"short_url":"…","count":1}', '{"short_url":"Ab3dE9x","count":1}')).toBe(true);
    expect(outputMatches("HTTP/1.1 302 Found\n…\nlocation: /x\n…", "HTTP/1.1 302 Found\ndate: now\nlocation: /x\ncontent-length: 0\n")).toBe(true);
  });

  test("anything else must be there, whole: a drifted value, a missing field or more output fail", () => {
    expect(outputMatches('{"count":1}', '{"count":2}')).toBe(false);
    expect(outputMatches('{"a":1,"b":2}', '{"a":1}')).toBe(false);
    expect(outputMatches('{"a":1}', '{"a":1}{"a":1}')).toBe(false);
    expect(outputMatches("204", "")).toBe(false);
  });

  test("regular-expression characters in the page are plain text", () => {
    expect(outputMatches("a.b (c)?", "a.b (c)?")).toBe(true);
    expect(outputMatches("a.b", "axb")).toBe(false);
  });
});

describe("what a review found", () => {
  test("a page with CRLF line endings is read, not skipped", () => {
    expect(shellBlocksOf("p.md", "```sh\r\nfalse\r\n```\r\n").map((block) => block.commands.map((command) => command.text))).toEqual([["false"]]);
  });

  test("a fence with an info string does not close a block, and the language is any case", () => {
    const blocks = shellBlocksOf("p.md", ["```Bash", "echo a", "```bash", "echo b", "```"].join("\n"));
    expect(blocks.map((block) => block.commands.map((command) => command.text))).toEqual([["echo a", "```bash", "echo b"]]);
  });

  test("a note inside a pipeline keeps the command going; a # after ; starts a note", () => {
    expect(commandsOf(["printf '{\"a\":1}' |", "  # keep the field", "  jq .a", "# 1"])).toEqual([
      { line: 1, text: "printf '{\"a\":1}' |\n  # keep the field\n  jq .a", output: "1" },
    ]);
    expect(commandsOf(["echo hi;# it's fine"]).map((command) => command.text)).toEqual(["echo hi;# it's fine"]);
  });

  test("the matcher anchors both ends and finds the pieces in order, without overlap", () => {
    expect(outputMatches("a…b…c", "axxbyyc")).toBe(true);
    expect(outputMatches("a…c…b", "axxbyyc")).toBe(false);
    expect(outputMatches("ab…ba", "aba")).toBe(false);
    expect(outputMatches("…", "")).toBe(true);
    const series = `{"series":[${Array.from({ length: 400 }, () => '{"t":"x","visits":1}').join(",")}]}`;
    expect(outputMatches('{"series":[…{"t":"…","visits":2}]}', series)).toBe(false);
  });

  test("an output of nothing but … says nothing, and is refused by the doc test", () => {
    expect([saysNothing("…"), saysNothing(" … \n …"), saysNothing("{…}")]).toEqual([true, true, false]);
  });
});
