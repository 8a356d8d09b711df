/** What came back on a raw connection: the status line's code, the head and the body as text. */
export interface RawResponse {
  /** Undefined when nothing that looks like a status line arrived. */
  status: number | undefined;
  head: string;
  body: string;
  /** Header names in lower case; the last value wins. */
  headers: Record<string, string>;
  /** True when the server closed the connection. */
  closed: boolean;
}

/**
 * Sends `bytes` as they are on a new TCP connection to 127.0.0.1:`port`, for
 * requests fetch cannot express (an empty Host, an authority-form target, a
 * bad request line). Resolves once one whole response has arrived (by
 * Content-Length, chunked end, or the server closing), or when `timeoutMs`
 * passes, with whatever arrived by then; never rejects on a refused or
 * reset connection (the status is then undefined).
 */
export async function rawRequest(port: number, bytes: string | Uint8Array, options: { timeoutMs?: number } = {}): Promise<RawResponse> {
  const { text, closed } = await exchange(port, bytes, isComplete, options.timeoutMs);
  return parseResponse(text, closed);
}

/** What came back for requests pipelined on one connection. */
export interface RawExchange {
  /** The whole responses that arrived, in order. */
  responses: RawResponse[];
  /** True when the server closed the connection. */
  closed: boolean;
}

/**
 * Sends `bytes` (several requests back to back: HTTP/1.1 pipelining, RFC 9112
 * §9.3.2) on one new connection and resolves once `expected` whole responses
 * have arrived, the server has closed the connection, or `timeoutMs` has
 * passed, with the whole responses that arrived by then. Never rejects.
 */
export async function rawPipeline(port: number, bytes: string, expected: number, options: { timeoutMs?: number } = {}): Promise<RawExchange> {
  const { text, closed } = await exchange(port, bytes, (received) => splitResponses(received).length >= expected, options.timeoutMs);
  return { responses: splitResponses(text), closed };
}

/**
 * Writes `bytes` on a new connection to 127.0.0.1:`port` and gathers what
 * comes back (as latin1 text, byte for byte) until `enough` says so, the
 * server closes, or `timeoutMs` (3 s) passes. Never rejects: a refused or
 * reset connection is closed with what arrived.
 */
function exchange(port: number, bytes: string | Uint8Array, enough: (text: string) => boolean, timeoutMs = 3_000): Promise<{ text: string; closed: boolean }> {
  const chunks: Uint8Array[] = [];
  let closed = false;
  const received = () => Buffer.concat(chunks).toString("latin1");
  return new Promise((resolve) => {
    let settled = false;
    let socket: { end(): void } | undefined;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.end();
      resolve({ text: received(), closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(bytes);
        },
        data(_s, data) {
          chunks.push(new Uint8Array(data));
          if (enough(received())) finish();
        },
        close() {
          closed = true;
          finish();
        },
        error() {
          closed = true;
          finish();
        },
      },
    }).then(
      (s) => {
        socket = s;
        if (settled) s.end();
      },
      () => {
        closed = true;
        finish();
      },
    );
  });
}

/** The whole responses at the start of `text`, one after another. */
function splitResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (isComplete(rest)) {
    const headEnd = rest.indexOf("\r\n\r\n");
    const head = rest.slice(0, headEnd);
    const end = /^transfer-encoding:\s*chunked\s*$/im.test(head)
      ? rest.indexOf("\r\n0\r\n\r\n", headEnd) + 7
      : headEnd + 4 + Number(/^content-length:\s*(\d+)\s*$/im.exec(head)?.[1] ?? 0);
    responses.push(parseResponse(rest.slice(0, end), false));
    rest = rest.slice(end);
  }
  return responses;
}

function isComplete(text: string): boolean {
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd < 0) return false;
  const head = text.slice(0, headEnd);
  const body = text.slice(headEnd + 4);
  const length = /^content-length:\s*(\d+)\s*$/im.exec(head);
  if (length) return body.length >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked\s*$/im.test(head)) return /(^|\r\n)0\r\n\r\n$/.test(body);
  // A status without a body: 1xx, 204, 304, or the head of a HEAD answer (callers ask with GET).
  return /^HTTP\/1\.[01] (1\d\d|204|304) /.test(head);
}

function parseResponse(text: string, closed: boolean): RawResponse {
  const headEnd = text.indexOf("\r\n\r\n");
  const head = headEnd < 0 ? text : text.slice(0, headEnd);
  const body = headEnd < 0 ? "" : text.slice(headEnd + 4);
  const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: statusMatch ? Number(statusMatch[1]) : undefined, head, body, headers, closed };
}
