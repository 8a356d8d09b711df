import { findParts } from "../../client/lib/find-parts.ts";
import { actionMenuParts } from "./parts.ts";

export interface ActionMenu {
  readonly button: HTMLButtonElement;
  /** Closes the menu; the focus goes back to its button. */
  close(): void;
}

/**
 * The menu button pattern (WAI-ARIA APG): the button opens the menu and
 * the focus goes to its first item; Up and Down move between items (round),
 * Home and End to the ends; Escape, Tab, a click elsewhere or choosing an
 * item closes it, the focus back on the button (the popover's own).
 * `subject` names the button and the menu: "Actions for docs-home".
 */
export function mount(root: HTMLElement, subject: string): ActionMenu {
  const { menuButton, menuFor, menu } = findParts(root, actionMenuParts);
  menuFor.textContent = ` for ${subject}`;
  menu.setAttribute("aria-label", `Actions for ${subject}`);
  menuButton.popoverTargetElement = menu;
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')];
  const close = () => {
    if (menu.matches(":popover-open")) menu.hidePopover();
  };

  // Said as the menu opens or closes (beforetoggle comes at once; toggle a task later, once it is shown and can take the focus).
  menu.addEventListener("beforetoggle", (event) => menuButton.setAttribute("aria-expanded", String((event as ToggleEvent).newState === "open")));
  menu.addEventListener("toggle", (event) => {
    if ((event as ToggleEvent).newState === "open") items()[0]?.focus();
  });
  menu.addEventListener("keydown", (event) => moveFocus(event, items(), close));
  // Choosing an item closes the menu first (capture: before the item's own listener), so the focus is back
  // on the button when what the item does (a form, a dialog) takes it, and comes back there after.
  menu.addEventListener(
    "click",
    (event) => {
      if (event.target instanceof Element && event.target.closest('[role="menuitem"]')) close();
    },
    { capture: true },
  );
  return { button: menuButton, close };
}

function moveFocus(event: KeyboardEvent, items: HTMLElement[], close: () => void): void {
  if (event.key === "Tab") {
    close();
    return;
  }
  const at = items.indexOf(document.activeElement as HTMLElement);
  const to: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
  const next = to[event.key];
  if (next === undefined || items.length === 0) return;
  event.preventDefault();
  items[(next + items.length) % items.length]?.focus();
}
