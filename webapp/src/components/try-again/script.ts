/**
 * The "not available right now" panel: every Retry-After seconds it asks the
 * gateway's /ready whether the service the page was for answers again, and
 * loads the page again once it does. /ready has no side effect, where
 * asking for the page itself would (a short link's visit is counted once it
 * answers). A person can stop it; without a script the page still says
 * when to try and offers the link.
 */
import { findParts } from "../../client/lib/find-parts.ts";
import { tryAgainParts } from "./parts.ts";

async function serviceAnswers(upstream: string): Promise<boolean> {
  try {
    const answer = await fetch("/ready", { headers: { accept: "application/json" }, cache: "no-store" });
    const ready = (await answer.json()) as { checks?: Record<string, string> };
    return ready.checks?.[upstream] === "ok";
  } catch {
    return false;
  }
}

export function mount(root: HTMLElement, { reload }: { reload: () => void }): void {
  const { status, stop } = findParts(root, tryAgainParts);
  const upstream = root.dataset.upstream ?? "";
  const seconds = Math.max(1, Number(root.dataset.retryAfter) || 5);

  const timer = setInterval(async () => {
    if (!(await serviceAnswers(upstream))) return;
    clearInterval(timer);
    status.textContent = "The service answers again: loading the page.";
    reload();
  }, seconds * 1000);

  stop.hidden = false;
  stop.addEventListener("click", () => {
    clearInterval(timer);
    stop.hidden = true;
    status.textContent = "Stopped: this page no longer tries again by itself.";
  });
}
