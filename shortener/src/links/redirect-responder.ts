import type { SeenVisitor } from "../visits/seen-visitor.ts";
import { LinkNotFound } from "./link-errors.ts";
import type { LinkService } from "./link-service.ts";
import { notFoundPage, prefersHtml } from "./not-found-page.ts";

export type RedirectStatus = 301 | 302 | 307 | 308;

/** One request to follow a link, however it arrived (on its own, or in the gateway's batch). */
export interface RedirectRequest {
  code: string;
  /** HEAD answers alike without counting. */
  counted: boolean;
  /** Analytics on: who followed it, as the request said. */
  visitor: SeenVisitor | undefined;
  accept: string | null;
  /** The client's connection (its request's signal): closed before the visit is written, it is not counted. */
  client?: AbortSignal;
}

/** What a redirect answers, before it is a Response: a batch sends it as is, without building one. */
export interface RedirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export function toResponse(answer: RedirectAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * The answer to a redirect: the status and Location a visitor is sent on
 * with, or for an unknown link the HTML page a browser gets. Every other
 * failure is thrown for the error renderer. The one owner of what a redirect
 * answers, so a batched redirect and a lone one are the same bytes.
 */
export function redirectResponder(links: LinkService, status: RedirectStatus) {
  return async (request: RedirectRequest): Promise<RedirectAnswer> => {
    try {
      const longUrl = request.counted ? await links.visit(request.code, request.visitor, request.client) : await links.peek(request.code);
      return { status, headers: { location: longUrl, "cache-control": "private, max-age=0" }, body: null };
    } catch (error) {
      if (error instanceof LinkNotFound && prefersHtml(request.accept)) return notFoundPage(request.code);
      throw error;
    }
  };
}
