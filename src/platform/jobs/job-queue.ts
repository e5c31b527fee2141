// pg-boss on the same database as everything else (docs/decisions.md), so a job can be enqueued in the
// same transaction as the data it is about.
import { createRequire } from 'node:module';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../db/database-availability.ts';
import { type Database, type ExecuteSql, executeSqlOn } from '../db/open-database.ts';
import type { Tables } from '../db/schema.ts';
import { JOB_MAINTENANCE_SECONDS } from './job-lease.ts';

export type JobQueue = PgBoss;

export interface StartJobQueueOptions {
  /** Workers and the maintenance loop run only where jobs are processed. */
  supervise: boolean;
  queues: readonly string[];
}

// pg-boss's statements that end a job: its workers run them without awaiting the promise
// (Manager.watch's onFetch), so a rejection there would be unhandled.
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};
const SCHEMA = 'pgboss';
const ENDING_JOB = new Set([plans.completeJobs(SCHEMA), plans.failJobsById(SCHEMA)]);

/**
 * pg-boss's own statements (fetch, complete, fail, maintenance, start-up) wait out an outage and
 * run once the database is back, rather than failing: a job's completion is then recorded instead
 * of the job being handed back and run twice, a worker's fetch loop waits instead of spinning, and
 * a worker started while the database is down starts when it comes. Once the database is closed
 * (the process stopping), a completion still waiting is given up — its job's lease runs out and
 * the job is run again — and answers "no job changed" instead of rejecting into pg-boss.
 */
export function executeSqlRidingOutages(database: Pick<Database, 'executeSql' | 'availability'>): ExecuteSql {
  return async (text, values) => {
    for (;;) {
      try {
        return await database.executeSql(text, values);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        // Someone else's statement may already have found the server back: not a tight loop.
        if (database.availability.available) await new Promise((resolve) => setTimeout(resolve, 250));
        try {
          await database.availability.waitUntilAvailable();
        } catch (closed) {
          if (ENDING_JOB.has(text)) return { rows: [{ count: '0' }] };
          throw closed;
        }
      }
    }
  };
}

export async function startJobQueue(database: Database, options: StartJobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: executeSqlRidingOutages(database) },
    schema: SCHEMA,
    supervise: options.supervise,
    schedule: options.supervise,
    // Hands a dead worker's expired jobs back within seconds of their lease ending (job-lease.ts).
    maintenanceIntervalSeconds: JOB_MAINTENANCE_SECONDS,
  });
  boss.on('error', () => {});
  await boss.start();
  for (const name of options.queues) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
  }
  return boss;
}

/**
 * The channel on which every enqueue announces its queue's name (NOTIFY, delivered at commit), so
 * that a worker in any process starts the job at once instead of at its next poll of the queue.
 */
export const JOBS_CHANNEL = 'mimoto_jobs';

/**
 * Enqueues inside the caller's transaction: the job exists if and only if the transaction commits,
 * and then the queue's workers are told (JOBS_CHANNEL).
 */
export async function enqueueInTransaction(
  boss: JobQueue,
  trx: Kysely<Tables>,
  name: string,
  data: object,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  const id = await boss.send(name, data, { ...options, db: { executeSql: executeSqlOn(trx) } });
  await trx.executeQuery(CompiledQuery.raw('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, name]));
  return id;
}
