// A pipeline job's expiry is a lease its worker renews (platform/jobs/job-lease.ts): a job whose
// worker stopped renewing (dead) is handed back for retry once the lease runs out, well within a
// minute; a job whose worker lives keeps it however long it runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHECK_JOB_OPTIONS, checkQueue } from '../../src/checks/check-queues.ts';
import {
  JOB_LEASE_SECONDS,
  JOB_MAINTENANCE_SECONDS,
  startJobHeartbeat,
} from '../../src/platform/jobs/job-lease.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';

let platform: TestPlatform;
before(async () => {
  platform = await createTestPlatform();
});
after(async () => {
  await platform?.close();
});

const queue = checkQueue('ocr');
const sql = async (text: string, values: unknown[] = []) =>
  (await platform.database.executeSql(text, values)).rows as Record<string, unknown>[];
const stateOf = async (id: string) =>
  (await sql('SELECT state, start_after FROM pgboss.job WHERE id = $1', [id]))[0] as {
    state: string;
    start_after: Date;
  };
/** Time passing for the lease without waiting: the job started `seconds` ago. */
const startedAgo = (id: string, seconds: number) =>
  sql(`UPDATE pgboss.job SET started_on = now() - make_interval(secs => $2) WHERE id = $1`, [id, seconds]);
const maintain = () => (platform.jobs as unknown as { maintain(): Promise<unknown> }).maintain();

test('a dead worker’s job is retried within a minute: lease, maintenance and first retry delay', () => {
  const worstRetryDelay = 2 * CHECK_JOB_OPTIONS.retryDelay; // pg-boss backoff on the first retry
  assert.equal(CHECK_JOB_OPTIONS.expireInSeconds, JOB_LEASE_SECONDS);
  assert.ok(
    JOB_LEASE_SECONDS + JOB_MAINTENANCE_SECONDS + worstRetryDelay <= 50,
    'room left for the job itself within 60 s',
  );
});

test('a renewed lease keeps a long job; an abandoned one is handed back for retry', async () => {
  const id = await platform.jobs.send(queue, { sessionId: 'vs_lease' }, CHECK_JOB_OPTIONS);
  assert.ok(id);
  const [job] = await platform.jobs.fetch(queue);
  assert.equal(job?.id, id);

  const heartbeat = startJobHeartbeat(platform.database, { intervalMs: 60_000 });
  try {
    const release = heartbeat.hold(queue, id);
    // The job has run longer than its lease, but its worker is alive and renews it.
    await startedAgo(id, JOB_LEASE_SECONDS + 5);
    await heartbeat.beat();
    await maintain();
    assert.equal((await stateOf(id)).state, 'active', 'a living worker keeps its job');

    // The worker dies: nothing renews the lease any more.
    release();
    await heartbeat.beat();
    await startedAgo(id, JOB_LEASE_SECONDS + 1);
    await maintain();
    const handedBack = await stateOf(id);
    assert.equal(handedBack.state, 'retry');
    assert.ok(
      new Date(handedBack.start_after).getTime() - Date.now() <= 2 * CHECK_JOB_OPTIONS.retryDelay * 1000,
      'retried within seconds',
    );
  } finally {
    heartbeat.stop();
  }
});

test('the heartbeat leaves a job alone once it is no longer active', async () => {
  const id = await platform.jobs.send(queue, { sessionId: 'vs_done' }, CHECK_JOB_OPTIONS);
  assert.ok(id);
  const [job] = await platform.jobs.fetch(queue);
  assert.equal(job?.id, id);
  await platform.jobs.complete(queue, id);
  const heartbeat = startJobHeartbeat(platform.database, { intervalMs: 60_000 });
  try {
    heartbeat.hold(queue, id);
    const before = await sql('SELECT started_on FROM pgboss.job WHERE id = $1', [id]);
    await heartbeat.beat();
    assert.deepEqual(await sql('SELECT started_on FROM pgboss.job WHERE id = $1', [id]), before);
    assert.equal((await stateOf(id)).state, 'completed');
  } finally {
    heartbeat.stop();
  }
});
