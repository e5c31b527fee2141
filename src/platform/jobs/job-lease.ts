// How a crashed worker's jobs come back quickly (docs/decisions.md "Jobs"). pg-boss hands an active job
// back for retry once `expireInSeconds` has passed since it started, checked by its maintenance
// loop: with the default 300 s expiry and 120 s maintenance, a killed worker's verifications waited
// about 7 minutes. A short expiry alone would also hand back jobs that are merely slow (a check
// waiting for the inference threads under load), so the expiry is a lease that a living worker
// renews: every JOB_HEARTBEAT_SECONDS it moves the start of each job it runs to now. A job
// whose worker died stops being renewed and is retried within about
// JOB_LEASE_SECONDS + JOB_MAINTENANCE_SECONDS + the first retry delay (2–4 s); a job that is
// merely slow keeps its lease as long as its process lives.
//
// Checks take 0.01–0.9 s at p95 (docs/benchmarks/pipeline.md) and the worker's event loop stalls
// for 41 ms at most there; the lease (30 s) outlasts five missed heartbeats, because a worker that
// loses a job while alive runs it twice (tolerated: results keyed by session, check and
// generation; one decision per generation under the session lock) and each loss spends one of the
// job's retries. A dead worker's job runs again within 30 + 5 + 4 s; the rest of the minute is the
// check itself (bench/worker-crash.bench.ts).
import type { Database } from '../db/open-database.ts';

/** The expiry each pipeline job is sent with (pg-boss expireInSeconds). */
export const JOB_LEASE_SECONDS = 30;
/** How often a worker renews the leases of the jobs it runs. */
export const JOB_HEARTBEAT_SECONDS = 5;
/** How often pg-boss's maintenance (which hands expired jobs back) runs in a supervising process. */
export const JOB_MAINTENANCE_SECONDS = 5;

export interface JobHeartbeat {
  /** Renews `jobId`'s lease until the returned function is called (when the handler ends). */
  hold(queue: string, jobId: string): () => void;
  /** Renews every held lease now (tests; the timer does it every intervalMs). */
  beat(): Promise<void>;
  stop(): void;
}

export function startJobHeartbeat(
  database: Pick<Database, 'executeSql'>,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): JobHeartbeat {
  const held = new Map<string, string>(); // job id → queue (the partition pg-boss keeps it in)
  let beating: Promise<void> | undefined;
  const beat = async () => {
    if (held.size === 0) return;
    const jobs = [...held];
    // Only while the job is still active: a job already handed back (or finished) is left alone.
    await database.executeSql(
      `UPDATE pgboss.job j SET started_on = now()
         FROM unnest($1::text[], $2::uuid[]) AS h(name, id)
        WHERE j.name = h.name AND j.id = h.id AND j.state = 'active'`,
      [jobs.map(([, queue]) => queue), jobs.map(([id]) => id)],
    );
  };
  const timer = setInterval(
    () => {
      if (beating) return;
      beating = beat()
        .catch((error) => options.onError?.(error))
        .finally(() => {
          beating = undefined;
        });
    },
    options.intervalMs ?? JOB_HEARTBEAT_SECONDS * 1000,
  );
  timer.unref();
  return {
    hold(queue, jobId) {
      held.set(jobId, queue);
      return () => {
        held.delete(jobId);
      };
    },
    beat,
    stop() {
      clearInterval(timer);
    },
  };
}
