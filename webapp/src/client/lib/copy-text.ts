/**
 * Copies a read-only field's text, and says so in `status` (an aria-live
 * region). Where the browser refuses the clipboard (no permission, a page not
 * served over HTTPS), the text is selected instead, for the person to copy.
 */
export async function copyField(field: HTMLInputElement, status: HTMLElement): Promise<void> {
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
export function copyButton(button: HTMLButtonElement, field: HTMLInputElement, status: HTMLElement): void {
  button.addEventListener("click", () => void copyField(field, status));
}
