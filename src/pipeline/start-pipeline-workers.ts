// Pipeline workers, started in the worker and all roles only (src/main/server.ts):
// one pg-boss worker per check queue plus the decision queue. A handler that throws is retried by
// pg-boss with backoff (CHECK_JOB_OPTIONS); on a permanent error, or when the last retry fails,
// the session is marked failed with the cause and the job completes. Each running job's lease is
// renewed by a heartbeat (platform/jobs/job-lease.ts); a process killed mid-check stops renewing,
// the lease runs out (30 s) and pg-boss retries the job elsewhere.
//
// Face inference, the spoof checks and the OCR's document finding and warps run in piscina worker
// threads (inference/inference-pool.ts); tesseract.js runs its own worker threads; this event loop only
// hands work out and stores results. Workers never run in an api-only process.
import type { Job } from 'pg-boss';
import { CHECK_IDS, type CheckId, type CheckJobData, checkQueue, DECISION_QUEUE } from '../checks/index.ts';
import { terminateOcrEngine } from '../checks/ocr/index.ts';
import { closeInferencePool } from '../inference/index.ts';
import { isDatabaseUnavailable } from '../platform/db/database-availability.ts';
import { startJobHeartbeat } from '../platform/jobs/job-lease.ts';
import { JOBS_CHANNEL } from '../platform/jobs/job-queue.ts';
import type { Platform } from '../platform/platform.ts';
import { type DecisionJobData, recordPermanentFailure, runCheckJob } from './run-check-job.ts';
import { runDecisionJob } from './run-decision-job.ts';
import { type WarmUpReport, warmUpCheckModels } from './warm-up.ts';

export interface PipelineWorkerOptions {
  /** How often an idle worker polls its queue (pg-boss minimum 0.5 s). */
  pollingIntervalSeconds?: number;
  onError?: (error: unknown, context: { queue: string; sessionId: string }) => void;
  /**
   * Load and warm every check's models before taking jobs (warm-up.ts): a worker process does,
   * tests that run a few checks need not. A failed warm-up is reported to onWarmUpError and the
   * workers start anyway (each check loads its models on first use, and reports its own failure).
   */
  warmUp?: boolean;
  onWarmUpError?: (error: unknown) => void;
  /** How often the leases of running jobs are renewed (platform/jobs/job-lease.ts); tests shorten it. */
  heartbeatIntervalMs?: number;
}

export interface PipelineWorkers {
  /** The warm-up's figures, when warmUp was asked for and succeeded. */
  warmedUp: WarmUpReport | null;
  stop(): Promise<void>;
}

type JobWithMetadata<T> = Job<T> & { retryCount?: number; retryLimit?: number };

const isPermanent = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { isPermanent?: boolean }).isPermanent === true;

async function handle<T extends { sessionId: string }>(
  platform: Platform,
  queue: string,
  job: JobWithMetadata<T>,
  run: () => Promise<unknown>,
  options: PipelineWorkerOptions,
): Promise<void> {
  try {
    // A statement cut by a database outage is not the job's fault: it waits for the database and
    // runs again here, spending none of the job's retries (an outage longer than the retries'
    // backoff must not fail a verification). Each step of a job is safe to repeat: results are
    // keyed by session, check and generation, and one decision is taken per generation.
    for (;;) {
      try {
        await run();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        await platform.database.availability.waitUntilAvailable();
      }
    }
  } catch (error) {
    options.onError?.(error, { queue, sessionId: job.data.sessionId });
    const lastTry = (job.retryCount ?? 0) >= (job.retryLimit ?? 0);
    if (!isPermanent(error) && !lastTry) throw error;
    await recordPermanentFailure(
      platform,
      queue === DECISION_QUEUE ? 'decision' : (queue.slice('check.'.length) as CheckId),
      job.data.sessionId,
      error,
    );
  }
}

export async function startPipelineWorkers(
  platform: Platform,
  options: PipelineWorkerOptions = {},
): Promise<PipelineWorkers> {
  let warmedUp: WarmUpReport | null = null;
  if (options.warmUp) {
    try {
      warmedUp = await warmUpCheckModels();
    } catch (error) {
      options.onWarmUpError?.(error);
    }
  }
  const workOptions = {
    batchSize: 1,
    includeMetadata: true,
    // Jobs enqueued in a transaction wake their worker (JOBS_CHANNEL, below); the poll finds the
    // rest: retries after their backoff, and any job whose notification was missed.
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
  } as const;
  const ids: string[] = [];
  const workerOfQueue = new Map<string, string>();
  // Jobs in flight: stop() waits for them, so the database is never closed under a running job.
  const inFlight = new Set<Promise<void>>();
  // A finished job has usually just enqueued the next step (a dependent check or the decision):
  // wake this process's idle workers so it starts now rather than at their next poll. Each wake is
  // one fetch; jobs sent by other processes are still found by polling.
  const heartbeat = startJobHeartbeat(platform.database, {
    ...(options.heartbeatIntervalMs ? { intervalMs: options.heartbeatIntervalMs } : {}),
    // During an outage the database's own line says it; the lease is renewed once it is back.
    onError: (error) => {
      if (!isDatabaseUnavailable(error)) options.onError?.(error, { queue: 'heartbeat', sessionId: '' });
    },
  });
  const track = (queue: string, job: Job<unknown>, work: () => Promise<void>) => {
    const release = heartbeat.hold(queue, job.id);
    const running = work().finally(release);
    inFlight.add(running);
    return running.finally(() => {
      inFlight.delete(running);
      for (const id of ids) platform.jobs.notifyWorker(id);
    });
  };
  const register = (queue: string, id: string) => {
    ids.push(id);
    workerOfQueue.set(queue, id);
  };
  for (const checkId of CHECK_IDS) {
    const queue = checkQueue(checkId);
    register(
      queue,
      await platform.jobs.work<CheckJobData>(queue, workOptions, async ([job]) => {
        if (!job) return;
        await track(queue, job, () =>
          handle(
            platform,
            queue,
            job as JobWithMetadata<CheckJobData>,
            () => runCheckJob(platform, checkId, job.data),
            options,
          ),
        );
      }),
    );
  }
  register(
    DECISION_QUEUE,
    await platform.jobs.work<DecisionJobData>(DECISION_QUEUE, workOptions, async ([job]) => {
      if (!job) return;
      await track(DECISION_QUEUE, job, () =>
        handle(
          platform,
          DECISION_QUEUE,
          job as JobWithMetadata<DecisionJobData>,
          () => runDecisionJob(platform, job.data),
          options,
        ),
      );
    }),
  );
  // A job enqueued by another process (the API's submission) wakes its queue's worker at once
  // (JOBS_CHANNEL) rather than at the next poll: the poll cost 0.29 s of the 1.54 s median from
  // submission to decision (docs/benchmarks/pipeline.md). Polling stays, for a missed notification.
  const unlisten = await platform.database.listen(JOBS_CHANNEL, (queue) => {
    const id = workerOfQueue.get(queue);
    if (id) platform.jobs.notifyWorker(id);
  });
  return {
    warmedUp,
    async stop() {
      await unlisten();
      for (const id of ids) await platform.jobs.offWork(id);
      await Promise.allSettled([...inFlight]);
      heartbeat.stop();
      await closeInferencePool();
      // tesseract.js's worker threads would keep the process alive after SIGTERM.
      await terminateOcrEngine();
    },
  };
}
