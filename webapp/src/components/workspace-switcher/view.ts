import { html, type SafeHtml } from "../../html.ts";
import { workspaceSwitcherParts as ui } from "./parts.ts";

/** The person's workspaces, one chosen at a time, and the form that makes another (script.ts). */
export function workspaceSwitcherView(mark: SafeHtml): SafeHtml {
  return html`<section id="workspace-switcher" class="panel" aria-labelledby="switcher-title" ${mark}>
  <h2 id="switcher-title">Your workspaces</h2>
  <p id="switcher-status" class="message ok" role="status" ${ui.mark("status")}></p>
  <p id="switcher-error" class="message error" role="alert" ${ui.mark("loadError")}></p>
  <div class="switcher-row">
  <div>
  <div class="field" hidden ${ui.mark("choice")}>
    <label for="workspace-choice">Workspace</label>
    <select id="workspace-choice" aria-describedby="workspace-role" ${ui.mark("select")}></select>
    <p id="workspace-role" class="hint">Your role here: <strong ${ui.mark("role")}></strong></p>
  </div>
  <p id="workspace-none" class="muted" hidden ${ui.mark("none")}>You are in no workspace yet. Make one, or open an invite link an owner gave you.</p>
  </div>
  <form id="workspace-form" class="inline-form" method="post" novalidate aria-labelledby="workspace-form-title" ${ui.mark("newForm")}>
    <h3 id="workspace-form-title">New workspace</h3>
    <div class="field">
      <label for="workspace-name">Name</label>
      <input id="workspace-name" name="name" type="text" maxlength="100" autocomplete="off" aria-describedby="workspace-name-error" ${ui.mark("newName")}>
      <p id="workspace-name-error" class="field-error" role="alert"></p>
    </div>
    <button type="submit" ${ui.mark("newCreate")}>Create workspace</button>
  </form>
  </div>
</section>`;
}
