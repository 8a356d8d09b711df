import { describe, expect, test } from "bun:test";
import { html } from "../../src/html.ts";
import { defineParts } from "../../src/kit/parts.ts";

describe("a component's parts", () => {
  test("the view marks an element with the part's name, as markup that is already safe", () => {
    const ui = defineParts({ list: "ul", search: "input" });
    expect(html`<ul ${ui.mark("list")}></ul><input ${ui.mark("search")}>`.value).toBe('<ul data-part="list"></ul><input data-part="search">');
  });
});
