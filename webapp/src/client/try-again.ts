/**
 * The "not available right now" page: every Retry-After seconds it asks the
 * gateway's /ready whether the service the page was for answers again, and
 * loads the page again once it does. /ready has no side effect, where
 * asking for the page itself would (a short link's visit is counted once it
 * answers). A person can stop it; without a script the page still says
 * when to try and offers the link.
 */
import { byId } from "./lib/dom.ts";

const section = byId("try-again");
const upstream = section.dataset.upstream ?? "";
const seconds = Math.max(1, Number(section.dataset.retryAfter) || 5);
const status = byId("try-again-status");
const stopButton = byId<HTMLButtonElement>("try-again-stop");

async function serviceAnswers(): Promise<boolean> {
  try {
    const answer = await fetch("/ready", { headers: { accept: "application/json" }, cache: "no-store" });
    const ready = (await answer.json()) as { checks?: Record<string, string> };
    return ready.checks?.[upstream] === "ok";
  } catch {
    return false;
  }
}

const timer = setInterval(async () => {
  if (await serviceAnswers()) {
    clearInterval(timer);
    status.textContent = "The service answers again: loading the page.";
    location.reload();
  }
}, seconds * 1000);

stopButton.hidden = false;
stopButton.addEventListener("click", () => {
  clearInterval(timer);
  stopButton.hidden = true;
  status.textContent = "Stopped: this page no longer tries again by itself.";
});
