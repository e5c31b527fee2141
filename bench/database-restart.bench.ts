// npm run bench:database-restart — a PostgreSQL restart under load (issue 46): how long after the
// database is back the API answers again and every verification in flight is decided, and whether
// any was lost or decided twice. Prints the figures and the load average.
//
//   npm run bench:database-restart -- [--sessions 2] [--outage-s 15]
//
// The PostgreSQL server is a private cluster of the bench's own (test/helpers/private-postgres.ts,
// the one the outage test stops: Debian's server binaries, a temporary directory, a free port), so
// the machine's shared server keeps running. The API runs in this process (`mimoto start --role
// api` as bench-servers.ts builds it), one `mimoto start --role worker` process beside it. Load:
// --sessions genuine verifications walked through the hosted flow and submitted, and a tenant's
// server creating a session every 250 ms through the SDK (which retries 503s after Retry-After).
// Once the worker holds check jobs, the server is stopped as a crash stops it (`pg_ctl stop -m
// immediate`), left down --outage-s seconds (the API's answers then are counted: 503 with
// Retry-After expected), and started again. Figures: the API's first 201 after the database is
// back, and the last verification's decision; lost = submitted and never decided, double = more
// than one automatic decision or webhook event for a verification; the SDK's creates that failed;
// unhandled rejections or exceptions in either process (their guards' marker line).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Mimoto } from '../packages/node/src/index.ts';
import { installProcessGuards, UNHANDLED_MARKER } from '../src/main/process-guards.ts';
import { privatePostgresUnavailable, startPrivatePostgres } from '../test/helpers/private-postgres.ts';
import { CALLBACK_PREFIX, startMimotoServer, submitGenuineVerification } from './lib/bench-servers.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '2' },
    'outage-s': { type: 'string', default: '15' },
  },
});
const sessionCount = Number(values.sessions);
const outageMs = Number(values['outage-s']) * 1000;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

const unavailable = privatePostgresUnavailable();
if (unavailable) {
  console.log(`bench:database-restart not run: ${unavailable}`);
  process.exit(0);
}

const guardLines: string[] = [];
const guards = installProcessGuards((line) => {
  guardLines.push(line);
  console.error(line);
});
const postgres = await startPrivatePostgres();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mimoto-restart-bench-'));
const server = await startMimotoServer(
  { kind: 'postgres', adminUrl: postgres.url },
  // The capture check's time budget would refuse fronts on a loaded machine; this bench is about
  // the restart, not the capture (its budget: bench/capture-check.bench.ts).
  { MIMOTO_DATA_DIR: dataDir, MIMOTO_CAPTURE_CHECK_BUDGET_MS: '120000' },
);
// The bench's own reads, on a client it reconnects after the restart.
const query = async (text: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
};

let worker: ChildProcess | undefined;
let workerStderr = '';
// Stopped early (Ctrl-C), the private cluster still goes: pg_ctl started it as a daemon.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    worker?.kill('SIGKILL');
    void postgres.destroy().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
let failure: unknown;
try {
  worker = spawn(process.execPath, [path.join(repoDir, 'bin/mimoto.js'), 'start', '--role', 'worker'], {
    cwd: repoDir,
    env: { ...process.env, ...server.workerEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stderr!.on('data', (chunk: Buffer) => {
    workerStderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    worker!.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker started')) resolve();
    });
    worker!.once('exit', (code, signal) => reject(new Error(`the worker exited (${code ?? signal})`)));
  });
  console.log(`worker warm; load average ${load()}`);

  const sessions: string[] = [];
  for (let i = 1; i <= sessionCount; i++) sessions.push(await submitGenuineVerification(server, i));
  console.log(`${sessions.length} verifications submitted`);

  // The tenant's server keeps creating sessions through the SDK meanwhile.
  const sdk = new Mimoto({ apiKey: server.apiKey, baseUrl: server.origin, maxRetries: 20 });
  const creates = { ok: 0, failed: 0, errors: new Set<string>() };
  let creating = true;
  const creator = (async () => {
    const pending: Promise<void>[] = [];
    while (creating) {
      pending.push(
        sdk.sessions.create({ callbackUrl: `${CALLBACK_PREFIX}/sdk` }).then(
          () => void creates.ok++,
          (error: Error) => {
            creates.failed++;
            creates.errors.add(error.message.slice(0, 120));
          },
        ),
      );
      await sleep(250);
    }
    await Promise.all(pending);
  })();

  // Stopped while the worker holds check jobs: their statements are cut mid-job.
  const activeBy = Date.now() + 120_000;
  while ((await query(`SELECT 1 FROM pgboss.job WHERE state = 'active' LIMIT 1`)).length === 0) {
    if (Date.now() > activeBy) throw new Error('no check job became active in 2 minutes');
    await sleep(100);
  }
  await postgres.stopImmediate();
  const stoppedAt = Date.now();
  console.log(`PostgreSQL stopped (immediate) with check jobs active; load average ${load()}`);

  // During the outage: what a tenant's server sees, answered without the database.
  const outageAnswers = new Map<string, number>();
  while (Date.now() - stoppedAt < outageMs) {
    const res = await fetch(`${server.origin}/v1/verification-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callbackUrl: `${CALLBACK_PREFIX}/x` }),
    }).catch(() => null);
    const key = res ? `${res.status}${res.headers.get('retry-after') ? ' Retry-After' : ''}` : 'no answer';
    outageAnswers.set(key, (outageAnswers.get(key) ?? 0) + 1);
    await sleep(500);
  }
  const workerAlive = worker.exitCode === null;

  await postgres.start();
  const backAt = Date.now();
  // The API: the first create-session answered 201 after the database is back.
  let apiBackMs = Number.NaN;
  for (;;) {
    const res = await fetch(`${server.origin}/v1/verification-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callbackUrl: `${CALLBACK_PREFIX}/y` }),
    }).catch(() => null);
    if (res?.status === 201) {
      apiBackMs = Date.now() - backAt;
      break;
    }
    if (Date.now() - backAt > 120_000) break;
    await sleep(100);
  }
  // The worker: every verification decided.
  let decidedMs = Number.NaN;
  for (;;) {
    const rows = await query(
      `SELECT count(DISTINCT session_id)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1)`,
      [sessions],
    ).catch(() => [{ n: 0 }]);
    if (rows[0].n === sessions.length) {
      decidedMs = Date.now() - backAt;
      break;
    }
    if (Date.now() - backAt > 600_000) break;
    await sleep(200);
  }
  creating = false;
  await creator;
  await sleep(3000); // a duplicate would show up now
  const decisions = await query(
    `SELECT session_id, count(*)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1) GROUP BY session_id`,
    [sessions],
  );
  const events = await query(
    'SELECT session_id, count(*)::int AS n FROM webhook_events WHERE session_id = ANY($1) GROUP BY session_id',
    [sessions],
  );
  const failedJobs = await query(`SELECT count(*)::int AS n FROM pgboss.job WHERE state = 'failed'`);
  const lost = sessions.length - decisions.length;
  const double = decisions.filter((r) => r.n > 1).length + events.filter((r) => r.n > 1).length;
  const workerUnhandled = workerStderr.split('\n').filter((l) => l.includes(UNHANDLED_MARKER)).length;

  console.log('');
  console.log(
    `outage: ${secs(backAt - stoppedAt)}; the API's answers meanwhile: ${[...outageAnswers].map(([k, n]) => `${n} × ${k}`).join(', ')}`,
  );
  console.log(
    `after the database was back: the API answered 201 in ${secs(apiBackMs)}, every verification decided in ${secs(decidedMs)} (target ≤ 60 s: ${decidedMs <= 60_000 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `verifications: ${sessions.length}; lost ${lost}; double decisions or events ${double}; without webhook event ${sessions.length - events.length}; jobs failed for good ${failedJobs[0].n}`,
  );
  console.log(
    `SDK creates during the run: ${creates.ok} created, ${creates.failed} failed${creates.failed ? ` (${[...creates.errors].join('; ')})` : ''}`,
  );
  console.log(
    `worker ${workerAlive && worker.exitCode === null ? 'still running, never restarted' : 'EXITED'}; unhandled rejections or exceptions: worker ${workerUnhandled}, API ${guardLines.length}`,
  );
  console.log(`machine: ${os.cpus().length} cores, load average ${load()}`);
} catch (error) {
  failure = error;
} finally {
  worker?.kill('SIGKILL');
  await server.close().catch(() => {});
  await postgres.destroy();
  guards.uninstall();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failure) {
  console.error(failure);
  if (workerStderr) console.error(`worker stderr (last lines):\n${workerStderr.slice(-3000)}`);
  process.exit(1);
}
process.exit(0);
