/**
 * A fresh copy of the one element a component's `<template>` holds: markup a
 * script repeats (a table's row, a row's form) stays in the server's view,
 * written once with the escaped `html` tag, and the script only fills in
 * text and attributes.
 */
export function cloneTemplate<T extends HTMLElement = HTMLElement>(template: HTMLTemplateElement): T {
  const element = template.content.firstElementChild?.cloneNode(true);
  if (!(element instanceof HTMLElement)) throw new Error("the template holds no element");
  return element as T;
}
