import { cloneTemplate } from "../../client/lib/clone-template.ts";
import { fill, type h } from "../../client/lib/dom.ts";
import { findParts } from "../../client/lib/find-parts.ts";
import { confirmQuestionParts } from "./parts.ts";

type Child = Parameters<typeof h>[2];

export interface Question {
  /** Names the group: "Delete docs-home?". */
  label: string;
  /** What is asked, in words (may hold elements: the code as code). */
  text: Child[];
  /** The button that does it: "Yes, delete". */
  yes: string;
  /** Does it; a refusal in words (shown in the question, which stays), or null when done. */
  act(): Promise<string | null>;
  /** Cancel or Escape: the question goes. */
  cancelled(): void;
}

/**
 * The question, ready to place (its element) and focus (Cancel has the
 * focus, so Enter does not destroy by accident). Both buttons wait while
 * `act` runs.
 */
export function mount(template: HTMLTemplateElement, question: Question): HTMLElement {
  const root = cloneTemplate(template);
  const ui = findParts(root, confirmQuestionParts);
  root.setAttribute("aria-label", question.label);
  fill(ui.question, ...question.text);
  ui.questionYes.textContent = question.yes;
  ui.questionNo.addEventListener("click", () => question.cancelled());
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !ui.questionNo.disabled) question.cancelled();
  });
  ui.questionYes.addEventListener("click", async () => {
    ui.questionYes.disabled = ui.questionNo.disabled = true;
    ui.questionError.textContent = "";
    const refusal = await question.act();
    ui.questionYes.disabled = ui.questionNo.disabled = false;
    if (refusal !== null) ui.questionError.textContent = refusal;
  });
  return root;
}

/** Puts the focus on the question's Cancel, once it is in the page. */
export function focusCancel(root: HTMLElement): void {
  findParts(root, confirmQuestionParts).questionNo.focus();
}
