import {
  batchBody,
  ClientClosedRequest,
  encodeBatchItem,
  internalSecretHeader,
  maxBatchBytes,
  maxBatchItems,
  parseBatchAnswers,
  readStreamLimited,
  redirectBatchMediaType,
  redirectBatchPath,
  throttledWarning,
  type Logger,
  type RedirectBatchAnswer,
  type RedirectBatchItem,
} from "@linkgeo/shared";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";
import { recordWithoutHopByHop } from "./hop-by-hop.ts";
import { onReplicas } from "./replica-attempts.ts";
import { UpstreamUnavailable } from "./upstream-errors.ts";
import type { GatewayObserver } from "../metrics/gateway-metrics.ts";

export interface RedirectBatcherOptions {
  /** The shortener's replicas. */
  pool: UpstreamPool;
  /** INTERNAL_SECRET, shared with the shortener. */
  secret: string;
  /** Until a batch's answer has arrived whole, retry included: the gateway's time for one request. */
  timeoutMs: number;
  log: Logger;
  fetch?: typeof fetch;
  /** Told of each batch, attempt and retry (the metrics). */
  observer?: Pick<GatewayObserver, "batchSent" | "upstreamAnswered" | "upstreamFailed" | "retried">;
}

/** Statuses of a batch the shortener did not run (no such route, wrong secret, refused body): its items go by the per-request proxy. */
const notRun = new Set([400, 401, 403, 404, 405, 413, 415]);

/** An answer is a few hundred bytes (a not-found page about 600): this leaves room and bounds a broken upstream. */
const maxAnswerBytes = 16 * maxBatchBytes;

interface Waiting {
  encoded: string;
  /** UTF-8 bytes of `encoded`: the shortener's limit counts bytes, and a header may hold any character. */
  bytes: number;
  requestId: string;
  /** The client's connection; aborted when it closed. */
  client: AbortSignal | undefined;
  resolve: (response: Response | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Redirects to the shortener in batches (see shared/src/protocol/redirect-batch.ts).
 * The redirects that arrive in one turn of the event loop leave together,
 * as one request to one replica, at the end of that turn: a lone redirect
 * leaves at once, and under load one round trip carries tens of them.
 *
 * Replicas take batches in turn (the pool's round robin). A replica that
 * refuses or drops the connection is ejected and the batch sent once more to
 * another: a redirect is a GET, so at worst the batch in flight when a
 * replica dies after its commit is counted twice, the bound a lone proxied
 * redirect has too. Each item's client gets the gateway's 502 or 504 as a
 * lone request would. A shortener that does not take batches (an older
 * version, a different secret) answers 404 or 401: its items resolve to
 * undefined, for the caller to proxy one by one, and the gateway logs why.
 *
 * A redirect whose client's connection closed before its batch left is
 * taken out of it (ClientClosedRequest), so the shortener never counts it:
 * Bun closes a connection on which a request is pipelined behind one still
 * being answered (oven-sh/bun#38128), with no answer for either.
 */
export class RedirectBatcher {
  private gathering: Waiting[] = [];
  private scheduled = false;
  private readonly send: typeof fetch;
  private readonly warnNotRun: ReturnType<typeof throttledWarning>;

  constructor(private readonly options: RedirectBatcherOptions) {
    this.send = options.fetch ?? fetch;
    this.warnNotRun = throttledWarning(
      options.log,
      "the shortener did not take a batch of redirects; sending them one by one (is INTERNAL_SECRET the same on both?)",
    );
  }

  /**
   * The client's answer; undefined when this redirect must go by the per-request proxy instead.
   * `client` is the client's connection (its request's signal): closed before the batch leaves, the redirect is not sent.
   */
  redirect(item: RedirectBatchItem, client?: AbortSignal): Promise<Response | undefined> {
    if (client?.aborted) return Promise.reject(ClientClosedRequest.gone());
    return new Promise((resolve, reject) => {
      const encoded = encodeBatchItem(item);
      this.gathering.push({ encoded, bytes: Buffer.byteLength(encoded), requestId: item.requestId, client, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // setImmediate rather than a microtask: every request read in this turn joins the batch.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const waiting = this.gathering;
    this.gathering = [];
    let batch: Waiting[] = [];
    let bytes = Buffer.byteLength(batchBody([]));
    for (const entry of waiting) {
      if (entry.client?.aborted) {
        entry.reject(ClientClosedRequest.gone());
        continue;
      }
      if (batch.length === maxBatchItems || bytes + entry.bytes + 1 > maxBatchBytes) {
        void this.settle(batch);
        batch = [];
        bytes = Buffer.byteLength(batchBody([]));
      }
      batch.push(entry);
      bytes += entry.bytes + 1;
    }
    if (batch.length > 0) void this.settle(batch);
  }

  private async settle(batch: Waiting[]): Promise<void> {
    this.options.observer?.batchSent(batch.length);
    let answers: RedirectBatchAnswer[] | undefined;
    try {
      answers = await this.exchange(batch);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const [index, entry] of batch.entries()) {
      const answer = answers?.[index];
      if (answer === undefined) entry.resolve(undefined);
      else this.answer(entry, answer);
    }
  }

  /** The Response for one client, as the proxy would relay the same answer; a header no Response may carry is a bad answer. */
  private answer(entry: Waiting, answer: RedirectBatchAnswer): void {
    try {
      const headers = recordWithoutHopByHop(answer.headers);
      // The gateway frames the body it sends; a length from upstream would describe other bytes.
      delete headers["content-length"];
      headers["x-request-id"] = entry.requestId;
      entry.resolve(new Response(answer.body, { status: answer.status, headers }));
    } catch {
      entry.reject(UpstreamUnavailable.badAnswer(this.options.pool.name));
    }
  }

  /** The batch's answers in order, or undefined when the shortener did not run it. */
  private async exchange(batch: Waiting[]): Promise<RedirectBatchAnswer[] | undefined> {
    const { pool, timeoutMs } = this.options;
    const body = batchBody(batch.map((entry) => entry.encoded));
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    try {
      // Refused or dropped, a batch goes once more, to another replica: its redirects are GETs (see above).
      return await onReplicas(
        { pool, attempts: 2, deadline: deadline.signal, timeoutMs, retriable: () => true, observer: this.options.observer },
        async (replica) => {
          const startedAt = performance.now();
          const response = await this.send(new URL(redirectBatchPath, replica), {
            method: "POST",
            headers: { "content-type": redirectBatchMediaType, [internalSecretHeader]: this.options.secret },
            body,
            redirect: "manual",
            keepalive: true,
            signal: deadline.signal,
          });
          this.options.observer?.upstreamAnswered(pool.name, replica, response.status, (performance.now() - startedAt) / 1000);
          if (response.status !== 200) {
            await response.body?.cancel();
            if (!notRun.has(response.status)) throw UpstreamUnavailable.badAnswer(pool.name);
            this.warnNotRun({ replica, status: response.status });
            return undefined;
          }
          const read = await readStreamLimited(response.body, {
            maxBytes: maxAnswerBytes,
            declaredLength: response.headers.get("content-length"),
            signal: deadline.signal,
          });
          const answers = read.tooLarge ? undefined : parseBatchAnswers(new TextDecoder().decode(read.bytes ?? new Uint8Array()), batch.length);
          if (answers === undefined) throw UpstreamUnavailable.badAnswer(pool.name);
          return answers;
        },
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
