/**
 * `run`, or the error `timeout()` makes once `ms` have passed, whichever
 * comes first. `run` gets a signal that aborts (with that error) at the
 * deadline, so it may give up work it has not finished. A call still running
 * at the deadline is left to finish in the background; its late result, or
 * late failure, is dropped. The one way every service bounds a wait for a
 * dependency (the database, Redis, a readiness check).
 */
export async function withDeadline<T>(ms: number, run: (signal: AbortSignal) => Promise<T>, timeout: () => Error): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = timeout();
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const call = run(controller.signal);
  // A call that fails after the deadline won must not become an unhandled rejection.
  call.catch(() => {});
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
