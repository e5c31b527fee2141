// The retry schedule lives in the database: a process that stops in the middle of
// a schedule — cleanly, or dead in the middle of an attempt — loses nothing. Then the operator
// commands on the same database: webhooks list, webhooks redeliver, tenant rotate-webhook-secret.
// The platform is opened as `mimoto start` opens it: an on-disk PGlite directory, or a PostgreSQL
// database of its own when DATABASE_URL is set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Config } from '../../src/config.ts';
import { type OpenPlatform, openPlatform } from '../../src/main/open-platform.ts';
import { type CommandOutput, tenantCommand, webhooksCommand } from '../../src/main/operator-commands.ts';
import { startWebhookDeliveryWorker, type WebhookEventView } from '../../src/webhooks/index.ts';
import { claimDueEvents, claimEventNow } from '../../src/webhooks/webhook-event-repository.ts';
import { createFreshPostgres } from '../helpers/fresh-postgres.ts';
import { POSTGRES_URL, testConfig } from '../helpers/test-platform.ts';
import {
  createTenantWithSession,
  readEvent,
  recordApproval,
  signatureIsValid,
  waitFor,
} from './event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from './local-receiver.ts';

const WORKER = {
  pollIntervalMs: 50,
  timeoutMs: 2_000,
  retrySchedule: { offsetsMs: [1_500], minGapMs: 0 },
  random: () => 0.5,
};

let config: Config;
let cleanUp = async () => {};
let receiver: LocalReceiver;
/** Status per request to /flaky: 500 first, then 200. */
let flakyCalls = 0;

before(async () => {
  if (POSTGRES_URL) {
    const fresh = await createFreshPostgres(POSTGRES_URL);
    config = testConfig({ DATABASE_URL: fresh.url });
    cleanUp = fresh.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-webhooks-restart-'));
    config = testConfig({ MIMOTO_DATA_DIR: dir });
    cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  receiver = await startLocalReceiver((req, res) => {
    const status = req.url === '/flaky' && flakyCalls++ === 0 ? 500 : 200;
    res.writeHead(status).end(status === 200 ? 'ok' : 'down');
  });
});

after(async () => {
  await receiver?.close();
  await cleanUp();
});

async function withPlatform<T>(run: (platform: OpenPlatform) => Promise<T>): Promise<T> {
  const platform = await openPlatform(config, { supervise: false });
  try {
    return await run(platform);
  } finally {
    await platform.close();
  }
}

/** Runs an operator command and returns its exit code and what it printed. */
async function runCommand(
  command: (io: CommandOutput) => Promise<number>,
): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await command({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (out += text) },
  });
  return { code, out };
}

let tenantId = '';
let webhookSecret = '';
let sessionId = '';
let eventId = '';

test('a restart between two attempts of a schedule loses nothing', async () => {
  const firstNextAttempt = await withPlatform(async (platform) => {
    ({ tenantId, webhookSecret, sessionId } = await createTenantWithSession(
      platform,
      receiver.url('/flaky'),
    ));
    eventId = await recordApproval(platform, tenantId, sessionId);
    const worker = startWebhookDeliveryWorker(platform, WORKER);
    try {
      const { event } = await waitFor('the failed first attempt', async () => {
        const read = await readEvent(platform, eventId);
        return read.attempts.length === 1 ? read : undefined;
      });
      assert.equal(event.state, 'pending');
      return event.nextAttemptAt!;
    } finally {
      await worker.stop();
    }
  });
  // The first process is gone; a new one opens the same database.
  await withPlatform(async (platform) => {
    const worker = startWebhookDeliveryWorker(platform, WORKER);
    try {
      const { attempts } = await waitFor('delivery by the new process', async () => {
        const read = await readEvent(platform, eventId);
        return read.event.state === 'delivered' ? read : undefined;
      });
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.httpStatus]),
        [
          [1, 500],
          [2, 200],
        ],
      );
      assert.ok(
        attempts[1]!.startedAt.getTime() >= firstNextAttempt.getTime(),
        'not before its scheduled time',
      );
    } finally {
      await worker.stop();
    }
  });
  const requests = receiver.received.filter((r) => r.url === '/flaky');
  assert.equal(requests.length, 2);
  assert.ok(requests[1]!.body.equals(requests[0]!.body), 'the same bytes after the restart');
  assert.deepEqual(
    requests.map((r) => [r.headers['x-service-delivery'], r.headers['x-service-attempt']]),
    [
      [eventId, '1'],
      [eventId, '2'],
    ],
  );
});

test('an attempt cut short by a dead worker is recorded as interrupted and made again once its lease runs out', async () => {
  await withPlatform(async (platform) => {
    const { tenantId: tenant, sessionId: session } = await createTenantWithSession(
      platform,
      receiver.url('/orphan'),
    );
    const orphan = await recordApproval(platform, tenant, session);
    // A worker claims the event and dies before sending or recording anything.
    const now = new Date();
    const claimed = await claimDueEvents(platform.database.db, {
      now,
      leaseUntil: new Date(now.getTime() + 500),
      leaseToken: 'dead-worker',
      batchSize: 10,
      maxPerEndpoint: 8,
    });
    assert.deepEqual(
      claimed.map((e) => e.id),
      [orphan],
    );
    const worker = startWebhookDeliveryWorker(platform, WORKER);
    try {
      const { attempts } = await waitFor('the delivery after the lease', async () => {
        const read = await readEvent(platform, orphan);
        return read.event.state === 'delivered' ? read : undefined;
      });
      // Attempt 1 was started and never finished: recorded as such when the lease was recovered.
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.trigger, a.outcome, a.errorClass]),
        [
          [1, 'scheduled', 'failure', 'interrupted'],
          [2, 'scheduled', 'success', null],
        ],
      );
      assert.equal(attempts[0]!.startedAt.getTime(), now.getTime(), 'started when it was claimed');
      assert.match(attempts[0]!.errorMessage ?? '', /worker stopped/);
      assert.ok(attempts[1]!.startedAt.getTime() >= now.getTime() + 500, 'not while the lease held');
    } finally {
      await worker.stop();
    }
  });
});

test('a manual redelivery cut short by a dead process is recorded as an interrupted manual attempt', async () => {
  await withPlatform(async (platform) => {
    const { tenantId: tenant, sessionId: session } = await createTenantWithSession(
      platform,
      receiver.url('/orphan-manual'),
    );
    const orphan = await recordApproval(platform, tenant, session);
    const now = new Date();
    // `mimoto webhooks redeliver` claimed it (a manual lease) and the process died.
    const claimed = await claimEventNow(platform.database.db, orphan, {
      now,
      leaseUntil: new Date(now.getTime() + 300),
      leaseToken: 'm.dead-cli',
    });
    assert.ok(claimed && claimed !== 'busy');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const worker = startWebhookDeliveryWorker(platform, WORKER);
    try {
      const { attempts } = await waitFor('the delivery after the lease', async () => {
        const read = await readEvent(platform, orphan);
        return read.event.state === 'delivered' ? read : undefined;
      });
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.trigger, a.outcome, a.errorClass]),
        [
          [1, 'manual', 'failure', 'interrupted'],
          [2, 'scheduled', 'success', null],
        ],
      );
    } finally {
      await worker.stop();
    }
  });
});

test('mimoto webhooks list shows events, attempts and outcomes', async () => {
  const json = await runCommand((out) =>
    webhooksCommand(config, ['list', '--session', sessionId, '--json'], out),
  );
  assert.equal(json.code, 0);
  const events = JSON.parse(json.out) as WebhookEventView[];
  assert.equal(events.length, 1);
  assert.equal(events[0]!.eventId, eventId);
  assert.equal(events[0]!.state, 'delivered');
  assert.equal(events[0]!.event, 'verification.approved');
  assert.deepEqual(
    events[0]!.attempts.map((a) => [a.attempt, a.outcome, a.httpStatus, a.errorClass, a.responseSnippet]),
    [
      [1, 'failure', 500, 'http_status', 'down'],
      [2, 'success', 200, null, 'ok'],
    ],
  );
  const text = await runCommand((out) => webhooksCommand(config, ['list', '--session', sessionId], out));
  assert.equal(text.code, 0);
  assert.match(text.out, new RegExp(`${eventId}  verification.approved  delivered`));
  assert.match(text.out, /#1 scheduled .* failure HTTP 500 {2}http_status/);
  assert.match(text.out, /#2 scheduled .* success HTTP 200/);
});

test('mimoto tenant rotate-webhook-secret prints a new secret; mimoto webhooks redeliver sends the same bytes signed with it', async () => {
  const rotated = await runCommand((out) =>
    tenantCommand(config, ['rotate-webhook-secret', '--tenant', tenantId], out),
  );
  assert.equal(rotated.code, 0);
  const newSecret = /new webhook secret: (whsec_\w+)/.exec(rotated.out)?.[1];
  assert.ok(newSecret && newSecret !== webhookSecret, rotated.out);

  const redelivered = await runCommand((out) =>
    webhooksCommand(config, ['redeliver', '--event', eventId], out),
  );
  assert.equal(redelivered.code, 0, redelivered.out);
  assert.match(redelivered.out, new RegExp(`${eventId} attempt 3: success \\(HTTP 200\\)`));
  const requests = receiver.received.filter((r) => r.url === '/flaky');
  assert.equal(requests.length, 3);
  const last = requests[2]!;
  assert.ok(last.body.equals(requests[0]!.body));
  assert.equal(last.headers['x-service-attempt'], '3');
  assert.ok(signatureIsValid(last.body, last.headers, newSecret));
  assert.ok(!signatureIsValid(last.body, last.headers, webhookSecret));

  const missing = await runCommand((out) =>
    webhooksCommand(config, ['redeliver', '--event', 'evt_UNKNOWN'], out),
  );
  assert.equal(missing.code, 1);
});
