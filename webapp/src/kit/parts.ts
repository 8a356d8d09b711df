import { SafeHtml } from "../html.ts";

/** Each part's name, and the tag of its element ("input", "ul", "svg"). */
export type PartsSpec = Readonly<Record<string, string>>;

/** What a component's view and its script both hold: the names of the elements the script works with. */
export interface Parts<Spec extends PartsSpec> {
  readonly spec: Spec;
  /** The attribute that makes an element of the view this part: `<ul ${ui.mark("list")}>`. */
  mark(name: keyof Spec & string): SafeHtml;
}

/**
 * The elements a component's script needs, named once for its view and its
 * script: the view marks them (`data-part`), the script finds them under the
 * component's root (client/lib/find-parts.ts), so a page is wired by one
 * lookup of its root, never by ids scattered between markup and script. Tag
 * names rather than DOM classes: the server, which renders the view, has no
 * DOM.
 */
export function defineParts<const Spec extends PartsSpec>(spec: Spec): Parts<Spec> {
  return { spec, mark: (name) => new SafeHtml(`data-part="${name}"`) };
}
