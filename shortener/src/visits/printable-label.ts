// Printable ASCII, no space at either end. Every fact of a visit becomes a
// database key and an API value, so none may carry a control character, a
// newline, or text a log or a terminal would show as something else.
const printable = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** `text` when it can be stored and shown as it is (printable ASCII, 1 to `maxLength` characters); otherwise undefined. */
export function printableLabel(text: string | undefined, maxLength: number): string | undefined {
  return text !== undefined && text.length <= maxLength && printable.test(text) ? text : undefined;
}
