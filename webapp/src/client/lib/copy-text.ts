/**
 * Copies a read-only field's text (an input, or a textarea that wraps it),
 * and says so in `status` (an aria-live region). Where the browser refuses
 * the clipboard (no permission, a page not served over HTTPS), the text is
 * selected instead, for the person to copy.
 */
export async function copyField(field: HTMLInputElement | HTMLTextAreaElement, status: HTMLElement): Promise<void> {
  // Emptied first, so a second "Copied" is announced again.
  status.textContent = "";
  status.classList.remove("refused");
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = "Copied";
  } catch {
    field.focus();
    field.select();
    status.textContent = "Copying was refused: the text is selected, press Ctrl+C (⌘C on a Mac) to copy it.";
    status.classList.add("refused");
  }
}

/** Wires a Copy button to its field and status. */
export function copyButton(button: HTMLButtonElement, field: HTMLInputElement | HTMLTextAreaElement, status: HTMLElement): void {
  button.addEventListener("click", () => void copyField(field, status));
}

/**
 * Copies `text` that is on no field (a row of Your links), and says so in
 * `status`; refused, the status says so and gives the text to copy by hand.
 */
export async function copyText(text: string, status: HTMLElement): Promise<void> {
  status.textContent = "";
  status.classList.remove("refused");
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Copied";
  } catch {
    status.textContent = `Copying was refused: copy it by hand, ${text}`;
    status.classList.add("refused");
  }
}
