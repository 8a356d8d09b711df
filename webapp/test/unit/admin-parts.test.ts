import { describe, expect, test } from "bun:test";
import { adminPage } from "../../src/pages/admin-page.ts";

/** The `data-part` names in a piece of markup, in order. */
const partNames = (markup: string) => [...markup.matchAll(/data-part="([^"]+)"/g)].map((match) => match[1]!);

describe("the admin page's parts", () => {
  // A component's script finds each part as the first match under its root, nested components
  // included: a name used twice would hand a script another component's element.
  test("each part is named once on the page, and once in each template a script copies", () => {
    const markup = adminPage.main.value;
    const templates = [...markup.matchAll(/<template[^>]*>([\s\S]*?)<\/template>/g)].map((match) => match[1]!);
    expect(templates.length).toBeGreaterThanOrEqual(4);
    for (const part of [markup.replace(/<template([^>]*)>[\s\S]*?<\/template>/g, "<template$1></template>"), ...templates]) {
      const names = partNames(part);
      expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    }
  });
});
