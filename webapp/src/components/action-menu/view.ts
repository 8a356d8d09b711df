import { html, type SafeHtml } from "../../html.ts";
import { actionMenuParts as ui } from "./parts.ts";

/**
 * A menu button and its menu (`items`: elements with role="menuitem"). The
 * menu is a popover, in the top layer: a table's scrolling box does not
 * clip it, a click elsewhere or Escape closes it. The script names both
 * after what they act on (`menuFor`).
 */
export function actionMenuView(items: SafeHtml): SafeHtml {
  return html`<button type="button" class="secondary small menu-button" aria-haspopup="menu" aria-expanded="false" ${ui.mark("menuButton")}>Actions<span class="visually-hidden" ${ui.mark("menuFor")}></span></button>
<div class="action-menu" role="menu" popover ${ui.mark("menu")}>${items}</div>`;
}
