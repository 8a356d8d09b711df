/** Builds DOM nodes without HTML strings, so nothing a server or a user sent can become markup. */

type Child = Node | string | number | null | undefined | false | readonly Child[];
type AttributeValue = string | number | boolean | null | undefined;
type Attributes = Record<string, AttributeValue | ((event: never) => void)>;

function apply(element: Element, attributes: Attributes | undefined): void {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (typeof value === "function") element.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** `h("a", { href: "/", onClick: … }, "text", child)`: an HTML element. `on…` attributes are listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

/** The same for SVG elements (charts, the QR code). */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

export function show(element: HTMLElement, visible: boolean): void {
  element.hidden = !visible;
}

/** Replaces an element's children. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}
