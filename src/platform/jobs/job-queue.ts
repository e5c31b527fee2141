// pg-boss on the same database as everything else (docs/decisions.md), so a job can be enqueued in the
// same transaction as the data it is about.
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { type Database, executeSqlOn } from '../db/open-database.ts';
import type { Tables } from '../db/schema.ts';
import { JOB_MAINTENANCE_SECONDS } from './job-lease.ts';

export type JobQueue = PgBoss;

export interface StartJobQueueOptions {
  /** Workers and the maintenance loop run only where jobs are processed. */
  supervise: boolean;
  queues: readonly string[];
}

export async function startJobQueue(database: Database, options: StartJobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: database.executeSql },
    schema: 'pgboss',
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
