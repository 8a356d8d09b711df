import { BoundedMap, rootAnswerHeader, type Client } from "@linkgeo/shared";
import type { PageQuestions } from "@linkgeo/webapp";
import type { Server } from "elysia/universal";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";
import { forwardedHost } from "./forwarded-headers.ts";

export interface PageQuestionsDeps {
  shortener: UpstreamPool;
  /** Who sent a request: whether its X-Forwarded-Host may be believed. */
  clientOf: (request: Request, server: Server | null) => Client;
  /** The upstream deadline (UPSTREAM_TIMEOUT_MS): an answer is waited for no longer, nor longer than `pageWaitMs`. */
  timeoutMs: number;
  fetch: typeof fetch;
  /** Milliseconds on a clock that only goes forward; default performance.now. */
  now?: () => number;
}

/**
 * How long a host's root, once said, is the answer for that host: as long
 * as a shortener replica keeps its domains before reading them again, so a
 * change is seen within about a second either way, and a home page asked
 * many times a second costs the shortener one question.
 */
const rootAnswerMs = 1_000;

/**
 * The longest a page waits for the shortener's answer before it is served
 * as if it could not say: the shortener answers these from its memory or
 * its cache, and a frozen one must not hold every home page for the whole
 * upstream deadline.
 */
const pageWaitMs = 1_000;

type RootAnswerOf = Awaited<ReturnType<PageQuestions["rootOf"]>>;

/**
 * The shortener's answers a page for a person needs before it is served
 * (webRoutes): whether a link exists, and what `/` is on a host. Each asks
 * one replica, as the page's own calls would reach it: with the host the
 * person asked, which names the domain. An answer that does not come in
 * time, or that is not one of the expected, is "could not say". A host's
 * root is asked once for everyone asking it at the same time, and kept
 * `rootAnswerMs` (a "could not say" is not kept).
 */
export function pageQuestions(deps: PageQuestionsDeps): PageQuestions {
  const now = deps.now ?? (() => performance.now());
  // The few hosts a deployment is asked on; a client making up hosts only makes room for them.
  const roots = new BoundedMap<string, { at: number; answer: Promise<RootAnswerOf> }>(256);
  const ask = async (path: string, host: string): Promise<Response | undefined> => {
    const replica = deps.shortener.next();
    if (!replica) return undefined;
    try {
      const answer = await deps.fetch(`${replica}${path}`, {
        headers: { accept: "application/json", "x-forwarded-host": host },
        redirect: "manual",
        signal: AbortSignal.timeout(Math.min(deps.timeoutMs, pageWaitMs)),
      });
      await answer.body?.cancel();
      return answer;
    } catch {
      return undefined;
    }
  };

  return {
    hostOf: (request, server) => forwardedHost(request, new URL(request.url), deps.clientOf(request, server).viaTrustedProxy),

    // The link's public stats: 404 is no such link on that domain (absent: the default domain's).
    async linkIsKnown(code, on) {
      const onDomain = on.domain === undefined ? "" : `?domain=${encodeURIComponent(on.domain)}`;
      const answer = await ask(`/shorten/${encodeURIComponent(code)}/stats/${onDomain}`, on.host);
      if (answer === undefined) return undefined;
      return answer.status === 404 ? false : answer.ok ? true : undefined;
    },

    rootOf(host) {
      const held = roots.get(host);
      if (held && now() - held.at < rootAnswerMs) return held.answer;
      const asked = { at: now(), answer: rootAsked(host) };
      roots.set(host, asked);
      void asked.answer.then((answer) => {
        if (answer === undefined && roots.get(host) === asked) roots.delete(host);
      });
      return asked.answer;
    },
  };

  // The shortener's `GET /` (domains/root-routes.ts) says what `/` is in a header: an answer without it says nothing.
  async function rootAsked(host: string): Promise<RootAnswerOf> {
    const answer = await ask("/", host);
    const says = answer?.headers.get(rootAnswerHeader);
    const location = answer?.headers.get("location");
    if (says === "redirect" && answer?.status === 302 && location && URL.canParse(location)) return { redirect: location };
    if (says === "home" && answer?.status === 204) return "home";
    if (says === "none" && answer?.status === 404) return "none";
    return undefined;
  }
}
