/**
 * The UTM builder (view.ts): its tags read from the URL field when it opens,
 * checked, and written back to the field on "Add to the URL" (or Enter in
 * one of its fields), all in the page. Mounted on the home page's URL field;
 * made to be mounted on any other (a link's destination) the same way.
 */
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { utmBuilderParts } from "./parts.ts";
import { requiredUtmTags, utmTags, utmValuesOf, withUtmValues, type UtmTag, type UtmValues } from "./utm-url.ts";

export interface UtmBuilderDeps {
  /** The field whose address the tags go on; its own `.field-error` says what it lacks. */
  target: HTMLInputElement;
  /** What the page calls that field, in a sentence: "the URL to shorten". */
  targetName: string;
}

type Parts = FoundParts<typeof utmBuilderParts.spec>;

/** What a required tag's empty field says. */
const missing: Partial<Record<UtmTag, string>> = {
  source: "Say where the link is shared, like newsletter.",
  medium: "Say what kind of channel it is, like email.",
  campaign: "Name the campaign, like spring_sale.",
};

export function mount(root: HTMLElement, deps: UtmBuilderDeps): void {
  if (!(root instanceof HTMLDetailsElement)) throw new Error("the UTM builder's root is its <details>");
  const parts = findParts(root, utmBuilderParts);
  const details = root;
  details.addEventListener("toggle", () => {
    if (details.open) readTarget(parts, deps.target);
  });
  parts.add.addEventListener("click", () => addTags(parts, deps));
  for (const tag of utmTags) {
    parts[tag].addEventListener("input", () => {
      showFieldError(parts[tag], null);
      parts.status.textContent = "";
    });
    // Enter adds the tags: the form around the builder must not be sent by it.
    parts[tag].addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      addTags(parts, deps);
    });
  }
  // Shown now that it works: a page without scripts never offers it.
  root.hidden = false;
}

/** The tags the address already has, into the fields: a link tagged before is changed, not tagged twice. */
function readTarget(parts: Parts, target: HTMLInputElement): void {
  const values = utmValuesOf(target.value);
  if (!values || utmTags.every((tag) => values[tag] === "")) return;
  for (const tag of utmTags) {
    parts[tag].value = values[tag];
    showFieldError(parts[tag], null);
  }
}

function addTags(parts: Parts, { target, targetName }: UtmBuilderDeps): void {
  parts.status.textContent = "";
  if (target.value.trim() === "") {
    refuseTarget(target, `Type ${targetName} first, then add its tags.`);
    return;
  }
  const values = Object.fromEntries(utmTags.map((tag) => [tag, parts[tag].value.trim()])) as UtmValues;
  const empty = requiredUtmTags.filter((tag) => values[tag] === "");
  for (const tag of utmTags) showFieldError(parts[tag], empty.includes(tag) ? (missing[tag] ?? null) : null);
  const first = empty[0];
  if (first) {
    parts[first].focus();
    return;
  }
  const tagged = withUtmValues(target.value, values);
  if (tagged === undefined) {
    refuseTarget(target, "Enter a web address first, like example.com/page, then add its tags.");
    return;
  }
  target.value = tagged;
  showFieldError(target, null);
  // The page's own listeners hear of the new address as of one typed.
  target.dispatchEvent(new Event("input", { bubbles: true }));
  parts.status.textContent = `Added to ${targetName}.`;
}

function refuseTarget(target: HTMLInputElement, message: string): void {
  showFieldError(target, message);
  target.focus();
}
