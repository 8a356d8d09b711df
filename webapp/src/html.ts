/** Text made safe to place in HTML, as element content or inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** HTML that is already safe; `html` leaves it as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = string | number | SafeHtml | readonly SafeHtml[] | null | undefined;

/** A template whose interpolations are escaped, unless they are SafeHtml (or lists of it). */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    if (value instanceof SafeHtml) out += value.value;
    else if (Array.isArray(value)) out += value.map((item: SafeHtml) => item.value).join("");
    else if (value !== null && value !== undefined) out += escapeHtml(String(value));
    out += strings[i + 1]!;
  });
  return new SafeHtml(out);
}
