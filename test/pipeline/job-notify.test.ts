// A job enqueued in a transaction announces itself (JOBS_CHANNEL) when the transaction commits, and
// the pipeline workers start it at once instead of at their next poll of the queue.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { CHECK_JOB_OPTIONS, checkQueue } from '../../src/checks/check-queues.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import { enqueueInTransaction, JOBS_CHANNEL } from '../../src/platform/jobs/job-queue.ts';
import { createTestPlatform, POSTGRES_URL, type TestPlatform } from '../helpers/test-platform.ts';

let platform: TestPlatform;
before(async () => {
  platform = await createTestPlatform({ supervise: true });
});
after(async () => {
  await platform?.close();
});

const until = async (done: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
};

test('a listener hears a committed NOTIFY, and not one whose transaction rolled back', async () => {
  const heard: string[] = [];
  const stop = await platform.database.listen('mimoto_test', (payload) => heard.push(payload));
  try {
    const notify = (payload: string) =>
      CompiledQuery.raw('SELECT pg_notify($1, $2)', ['mimoto_test', payload]);
    await platform.database.db
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(notify('rolled back'));
        throw new Error('abort');
      })
      .catch(() => {});
    await platform.database.db.transaction().execute(async (trx) => {
      await trx.executeQuery(notify('committed'));
    });
    assert.ok(await until(() => heard.length > 0, 5000), 'no notification arrived');
    // Anything else the rolled-back transaction sent would have come before it.
    assert.deepEqual(heard, ['committed']);
  } finally {
    await stop();
  }
  await platform.database.executeSql("SELECT pg_notify('mimoto_test', 'after stop')");
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(heard, ['committed']);
});

test('a listener whose connection the server ends listens again and hears what comes after', {
  skip: POSTGRES_URL ? false : 'needs PostgreSQL: PGlite has no connections to lose',
}, async () => {
  const heard: string[] = [];
  const stop = await platform.database.listen('mimoto_test_lost', (payload) => heard.push(payload));
  try {
    const listeners = async () =>
      (
        await platform.database.executeSql(
          `SELECT pid FROM pg_stat_activity
              WHERE datname = current_database() AND query = 'LISTEN "mimoto_test_lost"'`,
        )
      ).rows.map((r) => Number(r.pid));
    const [pid] = await listeners();
    assert.ok(pid, 'no listening connection found');
    await platform.database.executeSql('SELECT pg_terminate_backend($1)', [pid]);
    assert.ok(
      await until(async () => (await listeners()).some((p) => p !== pid), 10_000),
      'the listener did not connect again',
    );
    await platform.database.executeSql("SELECT pg_notify('mimoto_test_lost', 'after reconnect')");
    assert.ok(await until(() => heard.length > 0, 5000), 'nothing heard after the reconnect');
    assert.deepEqual(heard, ['after reconnect']);
  } finally {
    await stop();
  }
});

test('workers polling once a minute start a job enqueued elsewhere at once', async () => {
  const workers: PipelineWorkers = await startPipelineWorkers(platform, { pollingIntervalSeconds: 60 });
  try {
    // Past the workers' first fetch, which happens when they start.
    await new Promise((r) => setTimeout(r, 1000));
    const queue = checkQueue('fraudSignalAnalysis');
    const jobId = await platform.database.db.transaction().execute((trx) =>
      // No such session: the check job ends at once as skipped, and pg-boss marks it completed.
      enqueueInTransaction(
        platform.jobs,
        trx,
        queue,
        { sessionId: randomUUID(), tenantId: randomUUID() },
        CHECK_JOB_OPTIONS,
      ),
    );
    assert.ok(jobId);
    const completed = async () => {
      const { rows } = await platform.database.executeSql('SELECT state FROM pgboss.job WHERE id = $1', [
        jobId,
      ]);
      return rows[0]?.state === 'completed';
    };
    assert.ok(
      await until(completed, 15_000),
      `job on ${JOBS_CHANNEL}'s queue ${queue} not started within 15 s`,
    );
  } finally {
    await workers.stop();
  }
});
