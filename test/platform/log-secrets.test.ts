// Issue 46 point 4: no log line holds a secret. One full run on a real server on a loopback port,
// as a tenant and a person would do it — the session created with the API key and the person's
// pre-registered name and birth date, the one-time link opened, the flow moved to a "phone" with
// the hand-off code, the simulator's genuine persona walking it to submission, the checks and the
// decision run by the pipeline, the webhook delivered to a receiver on 127.0.0.1 — plus the refusals
// anyone can provoke (the spent link and the spent hand-off code opened again). Every line written
// meanwhile (the request log at debug level, and anything on stdout or stderr) is then searched for
// every secret the run used: API key, link token, hand-off code, both flow cookies, the CSRF
// tokens, the webhook secret, and the person's names, kana, birth date and address.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/api-keys/index.ts';
import { buildApp } from '../../src/app.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import { HostedFlowClient } from '../../src/simulate/hosted-flow-client.ts';
import { prepareSimulation, simulateFlow } from '../../src/simulate/simulate-flow.ts';
import { createTenant } from '../../src/tenants/index.ts';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { freePort } from '../helpers/free-port.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';

const lines: string[] = [];
let platform: TestPlatform;
let app: FastifyInstance;
let receiver: LocalReceiver;
let workers: PipelineWorkers;
let delivery: DeliveryWorker;
let origin: string;
const restoreWrites: (() => void)[] = [];

/** Everything this process writes to stdout and stderr is kept too (console.* of the workers). */
function captureProcessOutput() {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restoreWrites.push(() => {
      stream.write = write as typeof stream.write;
    });
  }
}

before(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  platform = await createTestPlatform({
    supervise: true,
    env: {
      MIMOTO_PUBLIC_URL: origin,
      MIMOTO_LOG_LEVEL: 'debug',
      MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-log-secrets-')),
    },
  });
  receiver = await startLocalReceiver((_request, response) => response.writeHead(200).end('ok'));
  captureProcessOutput();
  app = await buildApp(platform, { logStream: { write: (line) => void lines.push(line) } });
  await app.listen({ port, host: '127.0.0.1' });
  workers = await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5 });
  delivery = startWebhookDeliveryWorker(platform, { pollIntervalMs: 100 });
});

after(async () => {
  for (const restore of restoreWrites) restore();
  await delivery?.stop();
  await workers?.stop();
  await app?.close();
  await platform?.close();
  await receiver?.close();
});

const cookieValue = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => /^mimoto_flow=([^;]+)/.exec(line)?.[1])
    .find(Boolean);

test('a full run — API, hosted flow with hand-off, pipeline, webhook — leaves no secret in any log line', async () => {
  const { tenantId, webhookSecret } = await createTenant(platform, {
    name: 'Log tenant',
    callbackUrlPrefixes: [receiver.url('/kyc/')],
  });
  const { apiKey } = await createApiKey(platform, tenantId, 'log test');
  const prepared = await prepareSimulation({ persona: 'genuine', seed: 5, documentType: 'drivers_license' });
  const person = prepared.media.personalData;

  const created = await fetch(`${origin}/v1/verification-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      callbackUrl: receiver.url('/kyc/done'),
      clientIpAddress: '127.0.0.1',
      preRegisteredInfo: {
        lastName: person.lastName,
        firstName: person.firstName,
        birthDate: person.birthDate,
        address: person.address,
      },
    }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { sessionId, verificationUrl } = (await created.json()) as {
    sessionId: string;
    verificationUrl: string;
  };
  const linkToken = new URL(verificationUrl).searchParams.get('token')!;

  // The link on the computer, then the hand-off code to the phone.
  const entered = await fetch(verificationUrl, { redirect: 'manual' });
  assert.equal(entered.status, 303);
  const computerCookie = cookieValue(entered)!;
  const state = (await (
    await fetch(`${origin}/verify/api/state`, { headers: { cookie: `mimoto_flow=${computerCookie}` } })
  ).json()) as { csrfToken: string };
  const handoff = await fetch(`${origin}/verify/api/handoff`, {
    method: 'POST',
    headers: { cookie: `mimoto_flow=${computerCookie}`, 'x-csrf-token': state.csrfToken },
  });
  assert.equal(handoff.status, 201, await handoff.clone().text());
  const handoffUrl = ((await handoff.json()) as { url: string }).url;
  const handoffCode = handoffUrl.split('/verify/h/')[1]!;
  const phone = await HostedFlowClient.enter(handoffUrl, 'ja');
  const phoneState = await phone.state();

  // What anyone can provoke: the spent link and the spent code, opened again.
  assert.equal((await fetch(verificationUrl, { redirect: 'manual' })).status, 410);
  assert.equal((await fetch(handoffUrl, { redirect: 'manual' })).status, 410);

  const result = await simulateFlow({ url: verificationUrl, client: phone, persona: 'genuine', prepared });
  assert.equal(result.sessionId, sessionId);
  assert.equal(result.liveness.status, 'success');

  // The pipeline decides; the decision's webhook reaches the receiver.
  const deadline = Date.now() + 600_000;
  while (!receiver.received.some((r) => r.url.startsWith('/kyc/done'))) {
    assert.ok(Date.now() < deadline, 'no webhook delivered within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const webhook = receiver.received.find((r) => r.url.startsWith('/kyc/done'))!;
  assert.match(String(webhook.headers['x-service-signature']), /^sha256=/);
  await new Promise((resolve) => setTimeout(resolve, 500)); // the delivery's own log lines

  const phoneCookie = /mimoto_flow=([^;]+)/.exec(
    String((phone as unknown as { cookie: string }).cookie),
  )?.[1];
  const secrets: Record<string, string | undefined> = {
    'API key': apiKey,
    'link token': linkToken,
    'hand-off code': handoffCode,
    "the computer's flow cookie": computerCookie,
    "the phone's flow cookie": phoneCookie,
    "the computer's CSRF token": state.csrfToken,
    "the phone's CSRF token": phoneState.csrfToken,
    'webhook secret': webhookSecret,
    'last name': person.lastName,
    'first name': person.firstName,
    'last name kana': person.lastNameKana,
    'first name kana': person.firstNameKana,
    'birth date': person.birthDate,
    'birth date without dashes': person.birthDate.replaceAll('-', ''),
    address: person.address,
  };
  const log = lines.join('');
  // The search means something only if the run was logged: each request, and the refusals.
  assert.ok(log.includes('"url":"/verify/api/liveness/attempts"'), 'the flow requests are in the log');
  assert.ok(log.includes('"url":"/verify/h/[redacted]"'), 'the hand-off request is in the log, redacted');
  const refusals = log
    .split('\n')
    .filter((line) => line.includes('hosted flow refused'))
    .map((line) => JSON.parse(line) as { level: number; sessionId: string; reason: string; err?: unknown });
  assert.deepEqual(
    refusals.map((r) => [r.level, r.sessionId, r.reason]),
    [
      [30, sessionId, 'link_used'],
      [30, sessionId, 'code_used'],
    ],
  );
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(value && value.length >= 2, `${name} is known to the test`);
    assert.ok(!log.includes(value), `the log holds the ${name}: ${lineHolding(log, value)}`);
  }
  // A refusal is the flow working: no warning, error or stack anywhere in the run.
  const loud = log
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as { level?: number; msg?: string };
      } catch {
        return null; // not a log line (a console line, the test runner's own output)
      }
    })
    .filter((entry) => typeof entry?.level === 'number' && entry.level >= 40);
  assert.deepEqual(loud, []);
});

function lineHolding(log: string, value: string): string {
  return (log.split('\n').find((line) => line.includes(value)) ?? '').slice(0, 300);
}
