import { HttpError } from "@linkgeo/shared";

/**
 * No replica of an upstream could take the request. The message names the
 * service, never a replica's address: clients must not learn the internal
 * network (the pool's log lines carry the addresses).
 */
export class UpstreamUnavailable extends HttpError {
  private constructor(message: string) {
    super(502, "upstream_unavailable", message);
  }

  /** The pool has no replica at all (its host name has not resolved yet). */
  static noReplicas(upstream: string): UpstreamUnavailable {
    return new UpstreamUnavailable(`the ${upstream} service is unavailable, try again shortly`);
  }

  /** The upstream answered something that is not an answer (a batch's body out of shape). */
  static badAnswer(upstream: string): UpstreamUnavailable {
    return new UpstreamUnavailable(`the ${upstream} service sent an answer the gateway cannot use`);
  }

  /** Replicas were tried and refused or dropped the connection. */
  static unreachable(upstream: string): UpstreamUnavailable {
    return new UpstreamUnavailable(`the ${upstream} service could not be reached, try again shortly`);
  }
}

/** The upstream did not answer within the gateway's total time for a request. */
export class UpstreamTimeout extends HttpError {
  private constructor(message: string) {
    super(504, "upstream_timeout", message);
  }

  static after(upstream: string, timeoutMs: number): UpstreamTimeout {
    return new UpstreamTimeout(`the ${upstream} service did not answer within ${timeoutMs} ms`);
  }
}
