// Webhook delivery throughput and isolation, on PostgreSQL.
//
//   npm run bench:webhooks -- [--events 6000] [--endpoints 20] [--rate 200] [--seconds 6] [--rounds 3] [--json FILE]
//   (--rounds 0: the throughput part only)
//
// DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the
// bench creates a database of its own there and drops it afterwards.
//
// How it is measured (docs/benchmarks/webhooks.md):
// - the receivers run in a child process (this same file with --receiver): one HTTP server per
//   endpoint on 127.0.0.1, each verifying every signature with node:crypto and answering 200 at
//   once, or — for "hanging" endpoints — reading the request and never answering;
// - the delivery worker is the production one (startWebhookDeliveryWorker, default concurrency and
//   per-endpoint cap, the real 5 s limit), in this process, on a fresh database;
// - throughput: a backlog of `events` decision events, spread over `endpoints` endpoints, drained
//   from a standing start; deliveries/s = events / time until the last one is recorded delivered;
// - isolation: 50 endpoints, 5 of them hanging. Rounds of `seconds` at a steady `rate` of events
//   to the 45 healthy endpoints, alternately without and with 10 % more events to the hanging ones
//   (rounds alternate so that load changes on a shared machine hit both conditions). The delay of
//   a healthy event is (attempt start + duration) − (event recorded), from the attempt table; the
//   extra delay is the difference of the two conditions' percentiles.
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApiKey } from '../src/api-keys/index.ts';
import { parseConfig } from '../src/config.ts';
import { type OpenPlatform, openPlatform } from '../src/main/open-platform.ts';
import { percentile } from '../src/platform/math/percentile.ts';
import { createSession } from '../src/sessions/create-session.ts';
import { createTenant } from '../src/tenants/index.ts';
import type { AutomaticDecisionEventInput } from '../src/webhooks/index.ts';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_PER_ENDPOINT,
  recordWebhookEvent,
  startWebhookDeliveryWorker,
} from '../src/webhooks/index.ts';
import { ownCpuSeconds, postgresBackendCpu } from './lib/cpu-usage.ts';

const TARGET_DELIVERIES_PER_SECOND = 500;

// ---------------------------------------------------------------- receiver (child process)

interface ReceiverSetup {
  healthy: number;
  hanging: number;
}
type ParentMessage =
  | { kind: 'start'; setup: ReceiverSetup }
  | { kind: 'secrets'; secrets: Record<string, string> }
  | { kind: 'stats' }
  | { kind: 'reset' };
type ChildMessage =
  | { kind: 'ports'; healthy: number[]; hanging: number[] }
  | { kind: 'ack' }
  | { kind: 'stats'; received: number; badSignatures: number; hangingRequests: number; cpuSeconds: number };

function runReceiver(): void {
  let secrets: Record<string, string> = {};
  let received = 0;
  let badSignatures = 0;
  let hangingRequests = 0;
  const servers: http.Server[] = [];
  const listen = async (hang: boolean): Promise<number> => {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (hang) {
          hangingRequests++;
          return;
        }
        received++;
        const body = Buffer.concat(chunks);
        const port = String((server.address() as AddressInfo).port);
        const header = String(req.headers['x-service-signature'] ?? '');
        const expected = createHmac('sha256', secrets[port] ?? '')
          .update(body)
          .digest();
        const got = Buffer.from(header.replace(/^sha256=/, ''), 'hex');
        if (got.length !== expected.length || !timingSafeEqual(got, expected)) badSignatures++;
        res.writeHead(200).end('ok');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1024, resolve));
    return (server.address() as AddressInfo).port;
  };
  process.on('message', async (message: ParentMessage) => {
    const send = (reply: ChildMessage) => process.send!(reply);
    if (message.kind === 'start') {
      const healthy: number[] = [];
      const hanging: number[] = [];
      for (let i = 0; i < message.setup.healthy; i++) healthy.push(await listen(false));
      for (let i = 0; i < message.setup.hanging; i++) hanging.push(await listen(true));
      send({ kind: 'ports', healthy, hanging });
    } else if (message.kind === 'secrets') {
      secrets = { ...secrets, ...message.secrets };
      send({ kind: 'ack' });
    } else if (message.kind === 'stats') {
      const cpu = process.cpuUsage();
      send({
        kind: 'stats',
        received,
        badSignatures,
        hangingRequests,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      });
    } else if (message.kind === 'reset') {
      for (const server of servers.splice(0)) {
        server.closeAllConnections();
        server.close();
      }
      received = 0;
      badSignatures = 0;
      hangingRequests = 0;
      send({ kind: 'ack' });
    }
  });
}

class ReceiverProcess {
  readonly #child: ChildProcess;
  #pending: ((message: ChildMessage) => void)[] = [];
  constructor() {
    this.#child = fork(process.argv[1]!, ['--receiver'], { execArgv: process.execArgv, stdio: 'inherit' });
    this.#child.on('message', (message: ChildMessage) => this.#pending.shift()?.(message));
  }
  ask<K extends ChildMessage['kind']>(message: ParentMessage): Promise<Extract<ChildMessage, { kind: K }>> {
    return new Promise((resolve) => {
      this.#pending.push(resolve as (message: ChildMessage) => void);
      this.#child.send(message);
    });
  }
  stop(): void {
    this.#child.kill();
  }
}

// ---------------------------------------------------------------- bench (parent)

interface Endpoint {
  port: number;
  tenantId: string;
  sessionId: string;
  callbackUrl: string;
  secret: string;
  hanging: boolean;
}

function decision(endpoint: Endpoint, generation: number): AutomaticDecisionEventInput {
  return {
    generation,
    verificationId: endpoint.sessionId,
    tenantId: endpoint.tenantId,
    decision: {
      status: 'approved',
      reason: 'all_checks_passed',
      metadata: { faceMatchSimilarity: 0.91, livenessConfidence: 0.97, ocrConfidence: 0.93, threshold: 0.6 },
    },
    results: {
      ocr: {
        success: true,
        confidence: 0.93,
        payload: {
          lastName: '山田',
          firstName: '太郎',
          birthDate: '1990-04-01',
          address: '東京都千代田区千代田1-1',
        },
      },
      documentSpoofCheck: { risk: 'low', score: 0.04, status: 'success' },
      selfieSpoofCheck: { risk: 'low', score: 0.02, status: 'success' },
      faceMatch: { similarity: 0.91, isSamePerson: true, status: 'success' },
      fraudSignalAnalysis: { riskScore: 0.05, signals: [] },
    },
    processedAt: new Date(),
  };
}

async function setUpEndpoints(
  platform: OpenPlatform,
  receiver: ReceiverProcess,
  healthy: number,
  hanging: number,
): Promise<Endpoint[]> {
  const ports = await receiver.ask<'ports'>({ kind: 'start', setup: { healthy, hanging } });
  const endpoints: Endpoint[] = [];
  for (const [list, isHanging] of [
    [ports.healthy, false],
    [ports.hanging, true],
  ] as const) {
    for (const port of list) {
      const callbackUrl = `http://127.0.0.1:${port}/hook`;
      const { tenantId, webhookSecret } = await createTenant(platform, {
        name: `bench ${port}`,
        callbackUrlPrefixes: [`http://127.0.0.1:${port}/`],
      });
      // create-session's INSERT checks the caller's key in the same statement: a real one.
      const { keyId } = await createApiKey(platform, tenantId, 'bench');
      const { sessionId } = await createSession(platform, { tenantId, keyId }, { callbackUrl });
      endpoints.push({ port, tenantId, sessionId, callbackUrl, secret: webhookSecret, hanging: isHanging });
    }
  }
  await receiver.ask<'ack'>({
    kind: 'secrets',
    secrets: Object.fromEntries(endpoints.map((e) => [String(e.port), e.secret])),
  });
  return endpoints;
}

let keySequence = 0;
/** Records events for `targets` in one transaction (as a batch of decisions would be). */
async function recordEvents(platform: OpenPlatform, targets: Endpoint[]): Promise<string[]> {
  return platform.database.db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (const endpoint of targets) {
      const { eventId } = await recordWebhookEvent(
        trx,
        platform,
        'decision',
        decision(endpoint, ++keySequence),
        { id: endpoint.sessionId, tenant_id: endpoint.tenantId, callback_url: endpoint.callbackUrl },
      );
      ids.push(eventId);
    }
    return ids;
  });
}

async function countDelivered(platform: OpenPlatform, ids: string[]): Promise<number> {
  const rows = await platform.database.db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('id', 'in', ids)
    .where('state', '=', 'delivered')
    .executeTakeFirstOrThrow();
  return Number(rows.n);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measureThroughput(
  platform: OpenPlatform,
  receiver: ReceiverProcess,
  events: number,
  endpointCount: number,
) {
  const endpoints = await setUpEndpoints(platform, receiver, endpointCount, 0);
  const ids: string[] = [];
  for (let start = 0; start < events; start += 200) {
    const batch = Array.from(
      { length: Math.min(200, events - start) },
      (_, i) => endpoints[(start + i) % endpoints.length]!,
    );
    ids.push(...(await recordEvents(platform, batch)));
  }
  // Open every pooled connection first, so the backends measured are all the ones that will work.
  await Promise.all(Array.from({ length: 10 }, () => platform.database.executeSql('SELECT pg_sleep(0.05)')));
  const backends = await postgresBackendCpu(platform.database, platform.config.databaseUrl ?? '');
  const receiverBefore = (await receiver.ask<'stats'>({ kind: 'stats' })).cpuSeconds;
  const backendsBefore = backends?.() ?? 0;
  const ownBefore = ownCpuSeconds();
  const started = performance.now();
  const worker = startWebhookDeliveryWorker(platform, { onError: (error) => console.error(error) });
  let delivered = 0;
  while (delivered < events) {
    await sleep(100);
    delivered = await countDelivered(platform, ids);
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  const cpu = {
    worker: ownCpuSeconds() - ownBefore,
    postgres: backends ? backends() - backendsBefore : null,
    receiver: 0,
  };
  const stats = await receiver.ask<'stats'>({ kind: 'stats' });
  cpu.receiver = stats.cpuSeconds - receiverBefore;
  await receiver.ask<'ack'>({ kind: 'reset' });
  const perDeliveryMs = (value: number | null) => (value === null ? null : round((value * 1000) / events, 3));
  const totalMs = (cpu.worker + (cpu.postgres ?? 0) + cpu.receiver) * 1000;
  return {
    events,
    endpoints: endpointCount,
    seconds: round(seconds, 2),
    deliveriesPerSecond: Math.round(events / seconds),
    received: stats.received,
    badSignatures: stats.badSignatures,
    cpuMsPerDelivery: {
      worker: perDeliveryMs(cpu.worker),
      postgres: perDeliveryMs(cpu.postgres),
      receiver: perDeliveryMs(cpu.receiver),
    },
    /** What this machine's cores could sustain if the run had them to itself. */
    cpuBoundDeliveriesPerSecond: Math.round((os.cpus().length * 1000) / (totalMs / events)),
  };
}

interface Round {
  hanging: boolean;
  healthyEvents: number;
  hangingEvents: number;
  delays: number[];
}

/**
 * One round of steady load: `rate` events/s to the healthy endpoints (round-robin), and with
 * `hanging`, one more event per 9 healthy ones to the hanging endpoints (10 % of the endpoints, 10 %
 * of the events). The healthy endpoints see the same load either way.
 */
async function runRound(
  platform: OpenPlatform,
  endpoints: { healthy: Endpoint[]; hanging: Endpoint[] },
  options: { rate: number; seconds: number; hanging: boolean },
): Promise<Round> {
  const healthyIds: string[] = [];
  const hangingIds: string[] = [];
  const started = performance.now();
  let recorded = 0;
  let next = 0;
  while (performance.now() - started < options.seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.rate) - recorded;
    if (due > 0) {
      const targets: Endpoint[] = [];
      for (let i = 0; i < due; i++) {
        const n = next++;
        targets.push(endpoints.healthy[n % endpoints.healthy.length]!);
        if (options.hanging && n % 9 === 8)
          targets.push(endpoints.hanging[((n / 9) % endpoints.hanging.length) | 0]!);
      }
      const ids = await recordEvents(platform, targets);
      for (const [i, id] of ids.entries()) (targets[i]!.hanging ? hangingIds : healthyIds).push(id);
      recorded += due;
    }
    await sleep(20);
  }
  // Let the last healthy events arrive (milliseconds; hanging ones are not waited for).
  const deadline = performance.now() + 10_000;
  while ((await countDelivered(platform, healthyIds)) < healthyIds.length && performance.now() < deadline) {
    await sleep(100);
  }
  const rows = await platform.database.db
    .selectFrom('webhook_events as e')
    .innerJoin('webhook_attempts as a', 'a.event_id', 'e.id')
    .select(['e.created_at', 'a.started_at', 'a.duration_ms'])
    .where('e.id', 'in', healthyIds)
    .where('a.attempt', '=', 1)
    .where('a.outcome', '=', 'success')
    .execute();
  const delays = rows.map((r) => r.started_at.getTime() + r.duration_ms - r.created_at.getTime());
  if (options.hanging) {
    // The next round must not inherit this one's hanging deliveries: stop their schedules, and let
    // the attempts in flight reach the 5 s limit.
    await platform.database.db
      .updateTable('webhook_events')
      .set({ state: 'failed', next_attempt_at: null })
      .where('id', 'in', hangingIds)
      .execute();
    await sleep(6_000);
  }
  return {
    hanging: options.hanging,
    healthyEvents: healthyIds.length,
    hangingEvents: hangingIds.length,
    delays,
  };
}

async function measureIsolation(
  platform: OpenPlatform,
  receiver: ReceiverProcess,
  options: { rate: number; seconds: number; rounds: number },
) {
  const all = await setUpEndpoints(platform, receiver, 45, 5);
  const endpoints = { healthy: all.filter((e) => !e.hanging), hanging: all.filter((e) => e.hanging) };
  const worker = startWebhookDeliveryWorker(platform, { onError: (error) => console.error(error) });
  const rounds: Round[] = [];
  try {
    // Alternating rounds, so a change in the machine's load during the run hits both conditions.
    for (let i = 0; i < options.rounds; i++) {
      for (const hanging of [false, true]) {
        rounds.push(
          await runRound(platform, endpoints, { rate: options.rate, seconds: options.seconds, hanging }),
        );
      }
    }
  } finally {
    await worker.stop();
  }
  const stats = await receiver.ask<'stats'>({ kind: 'stats' });
  await receiver.ask<'ack'>({ kind: 'reset' });
  const summarise = (hanging: boolean) => {
    const chosen = rounds.filter((r) => r.hanging === hanging);
    const delays = chosen.flatMap((r) => r.delays).sort((a, b) => a - b);
    const healthyEvents = chosen.reduce((sum, r) => sum + r.healthyEvents, 0);
    return {
      healthyEvents,
      healthyDeliveredFirstTry: delays.length,
      hangingEvents: chosen.reduce((sum, r) => sum + r.hangingEvents, 0),
      delayMs: {
        p50: percentileOrNull(delays, 50),
        p95: percentileOrNull(delays, 95),
        p99: percentileOrNull(delays, 99),
        max: delays.at(-1) ?? null,
      },
      perRoundP50: chosen.map((r) =>
        percentileOrNull(
          [...r.delays].sort((a, b) => a - b),
          50,
        ),
      ),
    };
  };
  return {
    endpoints: 50,
    hangingEndpoints: endpoints.hanging.length,
    ratePerSecondToHealthy: options.rate,
    secondsPerRound: options.seconds,
    rounds: options.rounds,
    hangingRequestsHeld: stats.hangingRequests,
    badSignatures: stats.badSignatures,
    allHealthy: summarise(false),
    tenPercentHang: summarise(true),
  };
}

/** A percentile, null when there is none (JSON has no NaN). */
const percentileOrNull = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p) : null);

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '6000' },
      endpoints: { type: 'string', default: '20' },
      rate: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '6' },
      rounds: { type: 'string', default: '3' },
      json: { type: 'string' },
    },
  });
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `mimoto_bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config = parseConfig({
    DATABASE_URL: url.toString(),
    MIMOTO_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
    MIMOTO_LOG_LEVEL: 'silent',
  });
  const receiver = new ReceiverProcess();
  let platform: OpenPlatform | undefined;
  try {
    platform = await openPlatform(config, { supervise: false });
    console.log(
      `webhooks bench on PostgreSQL — ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ` +
        `worker concurrency ${DEFAULT_CONCURRENCY}, ${DEFAULT_MAX_PER_ENDPOINT} per endpoint`,
    );
    // Warm-up: connections, JIT, the claim's plan.
    await measureThroughput(platform, receiver, Math.min(300, Number(values.events)), 5);
    const throughput = await measureThroughput(
      platform,
      receiver,
      Number(values.events),
      Number(values.endpoints),
    );
    const c = throughput.cpuMsPerDelivery;
    console.log(
      `throughput: ${throughput.deliveriesPerSecond} deliveries/s (${throughput.events} events to ${throughput.endpoints} endpoints in ${throughput.seconds} s; ` +
        `${throughput.received} received, ${throughput.badSignatures} bad signatures) — target ≥ ${TARGET_DELIVERIES_PER_SECOND}/s\n` +
        `  CPU per delivery: worker ${c.worker} ms, PostgreSQL backends ${c.postgres ?? 'n/a'} ms, receiver ${c.receiver} ms ` +
        `→ ${throughput.cpuBoundDeliveriesPerSecond} deliveries/s if the ${os.cpus().length} cores were free for it`,
    );
    // --rounds 0: throughput only (the smoke test's tiny run; isolation waits out 5 s limits).
    if (Number(values.rounds) === 0) {
      if (values.json)
        writeFileSync(values.json, JSON.stringify({ loadAverage: os.loadavg(), throughput }, null, 2));
      return;
    }
    const isolation = await measureIsolation(platform, receiver, {
      rate: Number(values.rate),
      seconds: Number(values.seconds),
      rounds: Number(values.rounds),
    });
    const show = (label: string, run: typeof isolation.allHealthy) =>
      console.log(
        `${label}: healthy delay p50 ${run.delayMs.p50} ms, p95 ${run.delayMs.p95} ms, p99 ${run.delayMs.p99} ms, max ${run.delayMs.max} ms ` +
          `(${run.healthyDeliveredFirstTry}/${run.healthyEvents} delivered at the first try; per-round p50 ${run.perRoundP50.join(', ')} ms` +
          `${run.hangingEvents ? `; ${run.hangingEvents} events to the hanging endpoints` : ''})`,
      );
    show('45 healthy endpoints, none hang     ', isolation.allHealthy);
    show('…and 5 more that hang (10 % of 50)  ', isolation.tenPercentHang);
    const extra = (key: 'p50' | 'p95' | 'p99') =>
      (isolation.tenPercentHang.delayMs[key] ?? 0) - (isolation.allHealthy.delayMs[key] ?? 0);
    console.log(
      `extra delay for healthy endpoints: p50 ${extra('p50')} ms, p95 ${extra('p95')} ms, p99 ${extra('p99')} ms ` +
        `(${isolation.hangingRequestsHeld} requests held open by hanging endpoints; ${isolation.badSignatures} bad signatures)`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        JSON.stringify({ loadAverage: os.loadavg(), throughput, isolation }, null, 2),
      );
    }
  } finally {
    receiver.stop();
    await platform?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (process.argv.includes('--receiver')) runReceiver();
else
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
