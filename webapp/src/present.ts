import { renderPage } from "./page-shell.ts";
import { pageForPerson } from "./people-pages.ts";
import { linkPageHeader, visitorPageOf } from "./visitor-page.ts";
import type { WebAssets } from "./web-assets.ts";

/**
 * What `present` needs to know of an answer besides the answer itself, as
 * plain values: the web app knows nothing of the gateway's route table.
 */
export interface AnswerSource {
  /**
   * `gateway`: an error the gateway raised itself (no route, a rate limit,
   * no replica answering); `upstream`: the service's own answer, relayed.
   */
  from: "gateway" | "upstream";
  /** The service the request was for (the outage page asks `/ready` about it); undefined: a path no service has. */
  upstream?: string;
  /** The route's rate-limit class: `redirect` and `unlock` are a person following or unlocking a short link. */
  limit?: string;
}

/**
 * The answer a person gets instead of `answer`, or `answer` itself:
 *
 * - an error of the gateway's own becomes, for a browser's navigation, the
 *   web app's page for it (404, 429, 502-504: `pageForPerson`);
 * - a service's answer to a followed (or unlocked) short link that is one
 *   of its visitor pages becomes the web app's own version of that page,
 *   and its 502-504 (the shortener's database down) the outage page; the
 *   `link-page` header, meant for the gateway only, never leaves;
 * - any other service answer passes as it is: an API's JSON stays JSON,
 *   its 404 included.
 */
export function present(assets: WebAssets, request: Request, answer: Response, source: AnswerSource): Response {
  if (source.from === "gateway") return pageForPerson(assets, request, answer, source.upstream);
  if (source.limit !== "redirect" && source.limit !== "unlock") return answer;
  const page = visitorPageOf(answer);
  if (page) {
    // The shortener's page is not sent: its connection is let go at once, whatever cancelling it says.
    void answer.body?.cancel().catch(() => {});
    return renderPage(assets, page);
  }
  answer.headers.delete(linkPageHeader);
  if (answer.status >= 502 && answer.status <= 504) return pageForPerson(assets, request, answer, source.upstream);
  return answer;
}
