import type { Parts, PartsSpec } from "../../kit/parts.ts";

type ElementOf<Tag> = Tag extends keyof HTMLElementTagNameMap
  ? HTMLElementTagNameMap[Tag]
  : Tag extends keyof SVGElementTagNameMap
    ? SVGElementTagNameMap[Tag]
    : never;

export type FoundParts<Spec extends PartsSpec> = { readonly [Name in keyof Spec]: ElementOf<Spec[Name]> };

/** Every part of `parts` under `root`, each checked to be the element its spec names: a missing or wrong one is a bug worth an error. */
export function findParts<Spec extends PartsSpec>(root: ParentNode, parts: Parts<Spec>): FoundParts<Spec> {
  const found: Record<string, Element> = {};
  for (const [name, tag] of Object.entries(parts.spec)) {
    const element = root.querySelector(`[data-part="${name}"]`);
    if (element?.localName !== tag) throw new Error(`the component has no <${tag}> part named ${name}`);
    found[name] = element;
  }
  return found as FoundParts<Spec>;
}

/** A component's root on the page: the one element a page's script looks up by its id. */
export function rootOf(id: string): HTMLElement {
  const root = document.getElementById(id);
  if (!root) throw new Error(`the page has no #${id}`);
  return root;
}

/**
 * Shows `message` under a field and marks the field invalid, or clears both:
 * the message goes in the `.field-error` of the field's own `.field`.
 */
export function showFieldError(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, message: string | null): void {
  const error = control.closest(".field")?.querySelector(".field-error");
  if (!error) throw new Error(`the field ${control.name || control.localName} has no .field-error in its .field`);
  error.textContent = message ?? "";
  if (message) control.setAttribute("aria-invalid", "true");
  else control.removeAttribute("aria-invalid");
}
