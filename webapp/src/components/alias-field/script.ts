/**
 * The alias field (view.ts) says one thing at a time, and only of the alias
 * it holds now. Once typing pauses: a problem of its shape, a reserved word
 * (from the shortener's own list, without asking), or what the API says:
 * no link has it yet, or it is taken, with free variants to pick. A refusal
 * on Shorten takes the status's place rather than say it again; any change
 * to the alias clears all of it at once.
 */
import { checkAlias } from "../../client/lib/alias-check.ts";
import { h } from "../../client/lib/dom.ts";
import { findParts, showFieldError, type FoundParts } from "../../client/lib/find-parts.ts";
import { aliasFieldParts } from "./parts.ts";
import { aliasProblem } from "./alias-problem.ts";

export interface AliasField {
  /** The alias typed, trimmed; "" for none. */
  value(): string;
  /** What is wrong with it, shown as the field's error (and nothing else said), or null. */
  refuseIfWrong(): string | null;
  /** An error of the API about it (taken, say), said in place of the status. */
  refuse(message: string): void;
  focus(): void;
  /** Empty, nothing said: after a link is made. */
  reset(): void;
}

type Parts = FoundParts<typeof aliasFieldParts.spec>;

export function mount(root: HTMLElement, { typingPauseMs }: { typingPauseMs: number }): AliasField {
  const parts = findParts(root, aliasFieldParts);
  const { input } = parts;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checking: AbortController | undefined;

  /** Forgets everything said of the alias, and any check under way. */
  const forget = () => {
    clearTimeout(timer);
    checking?.abort();
    parts.status.textContent = "";
    parts.suggestions.replaceChildren();
    showFieldError(input, null);
  };

  input.addEventListener("input", () => {
    forget();
    const alias = input.value.trim();
    if (alias === "") return;
    timer = setTimeout(() => {
      checking = new AbortController();
      void sayWhileTyped(parts, alias, checking.signal);
    }, typingPauseMs);
  });

  /** The error in place of the status: never both, never the same thing twice. */
  const refuse = (message: string) => {
    clearTimeout(timer);
    checking?.abort();
    parts.status.textContent = "";
    showFieldError(input, message);
  };

  return {
    value: () => input.value.trim(),
    refuseIfWrong() {
      const alias = input.value.trim();
      const problem = alias === "" ? null : aliasProblem(alias);
      if (problem) {
        refuse(problem);
        parts.suggestions.replaceChildren();
      } else showFieldError(input, null);
      return problem;
    },
    refuse,
    focus: () => input.focus(),
    reset() {
      input.value = "";
      forget();
    },
  };
}

/** What the field says of `alias` once typing paused: its problem, or what the API knows of it. */
async function sayWhileTyped(parts: Parts, alias: string, signal: AbortSignal): Promise<void> {
  const problem = aliasProblem(alias, { whileTyping: true });
  if (problem) {
    parts.status.textContent = problem;
    return;
  }
  const check = await checkAlias(alias, signal);
  if (signal.aborted || !check) return;
  if (!check.taken) {
    parts.status.textContent = `No link has “${alias}” yet.`;
    return;
  }
  parts.status.textContent = `“${alias}” is taken.`;
  if (check.suggestions.length === 0) return;
  const pick = (free: string) => {
    parts.input.value = free;
    parts.input.dispatchEvent(new Event("input"));
    parts.input.focus();
  };
  parts.suggestions.replaceChildren(
    h("span", { class: "hint" }, "Free:"),
    ...check.suggestions.map((free) => h("button", { type: "button", class: "secondary small", onClick: () => pick(free) }, `Use ${free}`)),
  );
}
