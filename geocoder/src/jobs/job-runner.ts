import { describeError, type Logger } from "@linkgeo/shared";
import { pointResultOf, queryResultOf } from "../geocoding/batch-points.ts";
import type { ForwardGeocoder, ForwardOutcome } from "../geocoding/forward-geocoder.ts";
import { NotAsked } from "../geocoding/provider-chain.ts";
import type { PatientPace, PointOutcome, ReverseGeocoder } from "../geocoding/reverse-geocoder.ts";
import type { ClaimedPoint, JobStore, PointResult } from "./job-store.ts";

const jobRunnerDefaults = {
  /** Points one claim takes. */
  claimSize: 64,
  /**
   * How long a claim holds its points (GEOCODER_JOB_LEASE_SECONDS). Renewed
   * while they are asked, so it only matters when a replica dies: its
   * points wait this long, then another takes them.
   */
  leaseMs: 30_000,
  /** How often a replica with nothing to do looks for new points (a job made on this replica wakes it at once). */
  idleMs: 1_000,
  /** How often expired jobs are deleted. */
  pruneEveryMs: 3_600_000,
} as const;

/** A point's result as its kind's batch gives it. */
const resultOf = (point: ClaimedPoint, outcome: PointOutcome | ForwardOutcome): PointResult =>
  point.kind === "forward" ? queryResultOf(outcome as ForwardOutcome, point.index) : pointResultOf(outcome as PointOutcome, point.index);

/** Resolves once the event loop has served what waits on I/O (a request, a timer). */
const requestsServed = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How long a job's point waits for a slot of a provider's rate limit: a minute of a public Nominatim's pace shared by 15 replicas' 4 points in flight. */
const jobSlotWaitMs = 60_000;

/** A job's pace: each point may wait `jobSlotWaitMs` for its slot, then has the chain's own budget; `inFlight` points at a time (GEOCODER_JOB_POINTS_IN_FLIGHT). */
export function jobPace(chainTimeoutMs: number, inFlight: number): PatientPace {
  return { slotWaitMs: jobSlotWaitMs, chainTimeoutMs: jobSlotWaitMs + chainTimeoutMs, inFlight };
}

export interface JobRunnerOptions {
  store: JobStore;
  geocoder: Pick<ReverseGeocoder, "reverseMany">;
  /** Forward jobs' queries go down its chain. */
  forward: Pick<ForwardGeocoder, "forwardMany">;
  /** How a job's points go down the chain: waiting for the providers' slots (PatientPace). */
  pace: PatientPace;
  /** This replica, as leases name it: unique per process. */
  owner: string;
  /** A finished job is kept this long (GEOCODER_JOB_TTL_HOURS). */
  ttlMs: number;
  /**
   * Whether the providers' spacing is shared with the other replicas right
   * now (Redis up, when it is configured). While it is not, this replica
   * claims nothing: its points would be asked at a pace of its own, and
   * every replica's together would outrun the providers' limits. Default:
   * always (one replica, no Redis).
   */
  spacingShared?: () => boolean;
  /**
   * Resolves once the store can be used, when it is opened in the background
   * (Postgres: `connectingJobStore`): the runner's first claim waits for it.
   * A store still opening is no failure of the runner's (it logged one
   * warning at every start); the store says itself when it cannot be opened.
   */
  storeOpened?: Promise<void>;
  log: Logger;
  now?: () => number;
  claimSize?: number;
  leaseMs?: number;
  idleMs?: number;
  pruneEveryMs?: number;
  /** How often a replica at work checks that its claim's jobs still run and the spacing is still shared; default 1 s (a third of the lease at most). */
  watchMs?: number;
}

export interface JobRunner {
  /** New work: look now rather than at the next idle tick. */
  wake(): void;
  /**
   * No more claims; the points in hand not asked yet are given back at
   * once, for another replica. Resolves when the rest are written, or
   * after `graceMs` at most: a point still at its provider then is left to
   * its lease, and another replica answers it once the lease runs out.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Answers the jobs' points on this replica, as every replica does: claim a
 * few waiting points under a lease (renewed while they are asked), answer
 * them at the providers' pace, write their results (only where the lease
 * is still ours: a point is answered once), and again. Nothing to claim: it
 * waits `idleMs`, or until woken. A store that fails is logged once per
 * outage and tried again after `idleMs`; a point's own failure is its
 * result, as in a batch.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const now = options.now ?? Date.now;
  const claimSize = options.claimSize ?? jobRunnerDefaults.claimSize;
  const leaseMs = options.leaseMs ?? jobRunnerDefaults.leaseMs;
  const idleMs = options.idleMs ?? jobRunnerDefaults.idleMs;
  const pruneEveryMs = options.pruneEveryMs ?? jobRunnerDefaults.pruneEveryMs;
  const spacingShared = options.spacingShared ?? (() => true);
  // A turn's watch: whether to stop (a job cancelled, the spacing lost), and when to renew the lease.
  const watchMs = options.watchMs ?? Math.min(1_000, leaseMs / 3);
  const stopping = new Set<AbortController>();
  let stopped = false;
  let failing = false;
  let lastPrune = 0;
  let woken: (() => void) | undefined;
  const stopRequested = Promise.withResolvers<void>();

  const rest = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, idleMs);
      woken = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      woken = undefined;
    });

  const turn = async (): Promise<boolean> => {
    if (now() - lastPrune >= pruneEveryMs) {
      lastPrune = now();
      const deleted = await options.store.deleteExpired(now());
      if (deleted > 0) options.log.info("expired geocoding jobs deleted", { jobs: deleted });
    }
    if (!spacingShared()) return false;
    const claimed = await options.store.claim(options.owner, claimSize, now(), leaseMs);
    if (claimed.length === 0) return false;
    // Stopped when a job of the claim is no longer running (cancelled), when the spacing can no longer be shared,
    // or when this replica stops: the points not answered by then are given back, not handed to LOCAL.
    const stop = new AbortController();
    stopping.add(stop);
    let lastRenewal = now();
    const watching = setInterval(() => {
      if (!spacingShared()) stop.abort();
      void Promise.all([...new Set(claimed.map((point) => point.job))].map((job) => options.store.find(job)))
        .then((jobs) => {
          if (jobs.some((job) => job?.status !== "running")) stop.abort();
        })
        .catch(() => {});
      if (now() - lastRenewal < leaseMs / 3) return;
      lastRenewal = now();
      options.store
        .renew(options.owner, claimed, now() + leaseMs)
        .catch((error) => options.log.warn("renewing a job lease failed", { error: describeError(error) }));
    }, watchMs);
    try {
      const { results, notAsked } = await answer(claimed, stop.signal);
      await options.store.complete(options.owner, results, now(), options.ttlMs);
      if (notAsked.length > 0) await options.store.release(options.owner, notAsked);
    } finally {
      clearInterval(watching);
      stopping.delete(stop);
    }
    return true;
  };

  /**
   * The claimed points' results (each job's points asked together: a claim
   * holds one job's, or the ends of two), and the points a stop left
   * unasked.
   */
  const answer = async (claimed: readonly ClaimedPoint[], stop: AbortSignal) => {
    const byJob = Map.groupBy(claimed, (point) => point.job);
    const results: Array<{ point: ClaimedPoint; result: PointResult }> = [];
    const notAsked: ClaimedPoint[] = [];
    for (const points of byJob.values()) {
      try {
        const outcomes = await ask(points, stop);
        for (const [i, point] of points.entries()) {
          const outcome = outcomes[i]!;
          if ("error" in outcome && outcome.error instanceof NotAsked) notAsked.push(point);
          else results.push({ point, result: resultOf(point, outcome) });
        }
      } catch (error) {
        // The job's platform is gone (the configuration changed since): each point says so.
        for (const point of points) results.push({ point, result: resultOf(point, { error }) });
      }
    }
    return { results, notAsked };
  };

  /** One job's claimed points down the chain of their kind, at the job's pace. */
  const ask = (points: readonly ClaimedPoint[], stop: AbortSignal) => {
    const { platform, language } = points[0]!;
    const pace = { ...options.pace, stop };
    const forward = points.flatMap((point) => (point.kind === "forward" ? [point.query] : []));
    if (forward.length > 0) return options.forward.forwardMany(forward, platform ?? undefined, pace);
    const queries = points.flatMap((point) => (point.kind === "reverse" ? [{ latitude: point.latitude, longitude: point.longitude }] : []));
    return options.geocoder.reverseMany(
      queries.map((at) => (language === null ? at : { ...at, language })),
      platform ?? undefined,
      pace,
    );
  };

  const loop = (async () => {
    if (options.storeOpened) await Promise.race([options.storeOpened, stopRequested.promise]);
    while (!stopped) {
      try {
        const busy = await turn();
        if (failing) options.log.info("geocoding jobs are being answered again");
        failing = false;
        if (!busy && !stopped) await rest();
        // Points answered offline (LOCAL, a cache) and a SQLite store settle without I/O: a claim after another
        // would then never let the process read a request (100,000 points held /health for 14 s). One claim at a time.
        else await requestsServed();
      } catch (error) {
        if (!failing) options.log.warn("answering geocoding jobs failed; trying again", { error: describeError(error) });
        failing = true;
        if (!stopped) await rest();
      }
    }
  })();

  return {
    wake: () => woken?.(),
    stop: async (graceMs = 2_000) => {
      stopped = true;
      stopRequested.resolve();
      woken?.();
      // Points not asked yet are given back at once, for another replica.
      for (const controller of stopping) controller.abort();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([loop, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
