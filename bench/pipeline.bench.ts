// Pipeline speed as users get it: genuine verifications at a person's pace through an API process
// and a worker process, as an operator runs them (`mimoto start --role api` / `--role worker`),
// written to docs/benchmarks/pipeline.md.
//
//   npm run bench:pipeline -- [--backlog 12] [--sessions 12] [--concurrency 4] [--pace human|fast]
//                             [--json FILE] [--no-write]
//
// DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the
// bench creates a database of its own there and drops it afterwards. PostgreSQL, because the API
// and the worker are separate processes and PGlite lives inside one.
//
// - Sessions: `mimoto simulate`'s genuine persona (src/simulate), seeds 1…n, in this process, over
//   HTTP against the API process: document photos (each checked at capture by the API), the live
//   check, the form, submission. --pace human (the default) takes as long as a person does
//   (simulate-flow.ts: ≥ 20 s a flow, frames 0.3 s apart), so the fraud check's "too fast" signals
//   stay quiet as they do for people; --pace fast is as fast as the machine (a load test of the
//   flow; its sessions end in review for capture_too_fast / liveness_too_fast, rightly).
//   --concurrency flows at once, started a flow's length apart divided by it, so that
//   submissions arrive spread out as people's do.
// - Phase 1 (API): --backlog sessions with no worker running. The API process's CPU over the phase
//   ÷ sessions = the API's CPU per verification (capture checks, live check, storage).
// - Phase 2 (worker): one worker process started, warmed, then it drains the backlog: decisions per
//   minute from its first job to the last decision; its CPU over the drain ÷ sessions = the
//   worker's CPU per verification.
// - Phase 3 (latency): --sessions more, the worker running: submitted_at → decided_at.
// - The API's event-loop delay (bench/lib/event-loop-probe.mjs) over phases 1 and 3, while uploads
//   of every document type are checked: the worse of the two phases' p99, and the max.
// - Per-check times: check_results.duration_ms; worker memory from /proc.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApiKey } from '../src/api-keys/index.ts';
import { parseConfig } from '../src/config.ts';
import { openPlatform } from '../src/main/open-platform.ts';
import { percentile } from '../src/platform/math/percentile.ts';
import { FlowStepRefused } from '../src/simulate/hosted-flow-client.ts';
import { prepareSimulation, simulateFlow } from '../src/simulate/simulate-flow.ts';
import { createTenant } from '../src/tenants/index.ts';
import { CALLBACK_PREFIX, createScratchDatabase } from './lib/bench-servers.ts';
import { type EventLoopDelay, freePort, startRole } from './lib/role-process.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '12' },
    sessions: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '4' },
    pace: { type: 'string', default: 'human' },
    json: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const backlog = Number(values.backlog);
const latencyRuns = Number(values.sessions);
const concurrency = Math.max(1, Number(values.concurrency));
const pace = values.pace as 'human' | 'fast';
if (pace !== 'human' && pace !== 'fast') throw new Error('--pace is human or fast');
if (!(backlog >= 1 && latencyRuns >= 1)) throw new Error('--backlog and --sessions are at least 1');
/** How long a flow takes at the pace (simulate-flow.ts HUMAN_FLOW_MS; fast: a few seconds). */
const FLOW_MS = pace === 'human' ? 21_000 : 4_000;

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'mimoto-pipeline-bench-'));
const scratch = await createScratchDatabase(adminUrl);
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const env: Record<string, string> = {
  MIMOTO_ENV: 'development',
  MIMOTO_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
  MIMOTO_LOG_LEVEL: 'silent',
  MIMOTO_RATE_LIMIT_PER_SECOND: '0',
  MIMOTO_PUBLIC_URL: origin,
  MIMOTO_DATA_DIR: scratchDir,
  DATABASE_URL: scratch.url,
  PORT: String(port),
  HOST: '127.0.0.1',
};
// The operator's side: migrations, one tenant and its key (as `mimoto tenant create` does).
const setup = await openPlatform(parseConfig(env), { supervise: false });
const { tenantId } = await createTenant(setup, {
  name: 'Bench tenant',
  callbackUrlPrefixes: [CALLBACK_PREFIX],
});
const { apiKey } = await createApiKey(setup, tenantId, 'bench');
await setup.close();
const db = new pg.Client({ connectionString: scratch.url });
await db.connect();
const loadAtStart = loadAverage();

let seedCounter = 0;
async function runOne(): Promise<string> {
  const seed = ++seedCounter;
  // The persona's media made first: the one-time link is valid for seconds (create-session.ts).
  const prepared = await prepareSimulation({ persona: 'genuine', seed });
  // The link is valid for seconds: on a loaded machine it can lapse before it is opened; a person
  // would then ask the tenant for a new one, and so does the bench (at most twice).
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${origin}/v1/verification-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callbackUrl: CALLBACK_PREFIX, clientIpAddress: '127.0.0.1' }),
    });
    if (response.status !== 201)
      throw new Error(`create-session: ${response.status} ${await response.text()}`);
    const { verificationUrl } = (await response.json()) as { verificationUrl: string };
    try {
      return (await simulateFlow({ url: verificationUrl, persona: 'genuine', seed, pace, prepared }))
        .sessionId;
    } catch (error) {
      const lapsed = error instanceof FlowStepRefused && error.step === 'open the verification link';
      if (!lapsed || attempt >= 2) throw error;
      console.log(`  seed ${seed}: the link lapsed before it was opened; a new session`);
    }
  }
}

/** `n` flows, `concurrency` at once, the slots started a flow's length ÷ concurrency apart. */
async function runFlows(n: number, onSubmitted: (id: string) => Promise<void> = async () => {}) {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async (_, slot) => {
      await sleep((slot * FLOW_MS) / concurrency);
      while (next < n) {
        next++;
        const id = await runOne();
        ids.push(id);
        console.log(`  ${ids.length}/${n} submitted`);
        await onSubmitted(id);
      }
    }),
  );
  return ids;
}

async function decidedCount(ids: string[]): Promise<number> {
  const { rows } = await db.query(
    "SELECT count(DISTINCT session_id)::int AS n FROM decisions WHERE kind = 'automatic' AND session_id = ANY($1)",
    [ids],
  );
  return rows[0].n as number;
}

async function waitDecided(ids: string[], timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while ((await decidedCount(ids)) < ids.length) {
    if (Date.now() > until)
      throw new Error(`not all of ${ids.length} sessions decided in ${secs(timeoutMs)}`);
    await sleep(100);
  }
}

const api = startRole('api', env, scratchDir);
let worker: ReturnType<typeof startRole> | undefined;
const report: string[] = [];
let summary: Record<string, unknown> | undefined;
try {
  await api.printed('capture check models loaded and warmed');
  console.log(`API process up on ${origin}; phase 1: ${backlog} sessions at ${pace} pace, no worker…`);

  // ---- phase 1: the API alone
  await api.eventLoopDelay();
  const apiCpu0 = api.cpuSeconds();
  const queued = await runFlows(backlog);
  const apiCpu = (api.cpuSeconds() - apiCpu0) / backlog;
  const apiLoop1 = await api.eventLoopDelay();

  // ---- phase 2: one worker drains the backlog
  const workerStarted = Date.now();
  worker = startRole('worker', env, scratchDir);
  const readyLine = await worker.printed('worker started');
  const warmUpS = /warmed in ([\d.]+) s/.exec(readyLine)?.[1];
  console.log(`worker ready after ${secs(Date.now() - workerStarted)}; draining the backlog…`);
  const workerCpu0 = worker.cpuSeconds();
  await worker.eventLoopDelay();
  await waitDecided(queued, 60 * 60_000);
  const workerCpu = (worker.cpuSeconds() - workerCpu0) / backlog;
  const workerLoop = await worker.eventLoopDelay();
  const drained = await db.query(
    `SELECT min(c.completed_at - make_interval(secs => c.duration_ms / 1000.0)) AS first_start,
            max(d.decided_at) AS last_decision
       FROM check_results c JOIN decisions d ON d.session_id = c.session_id
      WHERE c.session_id = ANY($1)`,
    [queued],
  );
  const drainMs =
    new Date(drained.rows[0].last_decision).getTime() - new Date(drained.rows[0].first_start).getTime();
  const perMinute = (backlog / drainMs) * 60_000;
  console.log(
    `backlog of ${backlog} decided in ${secs(drainMs)} from the first job: ${perMinute.toFixed(1)}/min`,
  );

  // ---- phase 3: latency with the worker running
  console.log(`phase 3: ${latencyRuns} sessions at ${pace} pace with the worker running…`);
  await api.eventLoopDelay();
  const single = await runFlows(latencyRuns);
  const apiLoop3 = await api.eventLoopDelay();
  await waitDecided(single, 10 * 60_000);
  const memory = worker.memory();
  const exitedOnSigterm = await worker.stop();
  worker = undefined;

  const all = [...queued, ...single];
  const latencies = await db.query(
    `SELECT s.id, extract(epoch FROM d.decided_at - s.submitted_at) * 1000 AS ms, d.status, d.reason
       FROM verification_sessions s JOIN decisions d ON d.session_id = s.id AND d.kind = 'automatic'
      WHERE s.id = ANY($1)`,
    [all],
  );
  const latencyRows = latencies.rows.filter((r) => single.includes(r.id));
  const sorted = Float64Array.from(latencyRows.map((r) => Number(r.ms))).sort();
  const e2e = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: percentile(sorted, 100) };
  const checks = await db.query(
    `SELECT check_id, percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
            percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95, count(*)::int AS n
       FROM check_results WHERE session_id = ANY($1) GROUP BY check_id ORDER BY check_id`,
    [single],
  );
  const types = await db.query(
    `SELECT document_type, count(*)::int AS n FROM verification_sessions WHERE id = ANY($1)
      GROUP BY document_type ORDER BY document_type`,
    [all],
  );
  const outcomes = new Map<string, number>();
  for (const r of latencies.rows) {
    const key = r.reason ? `${r.status} ${r.reason}` : r.status;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const approved = latencies.rows.filter((r) => r.status === 'approved').length;
  const apiLoop: EventLoopDelay = {
    p50: Math.max(apiLoop1.p50, apiLoop3.p50),
    p99: Math.max(apiLoop1.p99, apiLoop3.p99),
    max: Math.max(apiLoop1.max, apiLoop3.max),
    samples: apiLoop1.samples + apiLoop3.samples,
  };
  const round = (x: number, digits: number) => Number(x.toFixed(digits));
  summary = {
    sessions: all.length,
    approved,
    p50Seconds: round(e2e.p50 / 1000, 3),
    p95Seconds: round(e2e.p95 / 1000, 3),
    perMinute: round(perMinute, 1),
    cpuSecondsPerVerification: {
      api: round(apiCpu, 3),
      worker: round(workerCpu, 3),
      total: round(apiCpu + workerCpu, 3),
    },
    apiEventLoopDelayMs: { p99: apiLoop.p99, max: apiLoop.max },
    pace,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
  };
  const loadAtEnd = loadAverage();
  const gb = (mb: number) => `${(mb / 1024).toFixed(2)} GB`;
  const row = (figure: string, target: string, measured: string, met: boolean) =>
    `| ${figure} | ${target} | ${measured} | ${met ? 'yes' : '**no**'} |`;
  const cpuTotal = apiCpu + workerCpu;
  report.push(
    '# Pipeline speed',
    '',
    '<!-- Written by `npm run bench:pipeline` (bench/pipeline.bench.ts); do not edit by hand. -->',
    '',
    `Command: \`npm run bench:pipeline -- ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 16)} UTC, on PostgreSQL (${adminUrl.replace(/\/\/[^@]*@/, '//')}; a scratch database), one API process (\`mimoto start --role api\`) and one worker process (\`mimoto start --role worker\`), the simulated people in the bench process. Machine: ${os.cpus().length} cores, ${gb(os.totalmem() / 2 ** 20)} RAM, shared with other work: load average ${loadAtStart} at the start, ${loadAtEnd} at the end — figures are pessimistic for a dedicated 2-core machine.`,
    '',
    `Every session is a genuine \`mimoto simulate\` persona (seeds 1…${all.length}) at ${pace === 'human' ? "a person's pace (≥ 20 s a flow)" : 'the machine’s pace (`--pace fast`: the fraud check rightly flags such flows as too fast)'}, ${concurrency} at once: document photos uploaded (each checked at capture by the API), the live check done over HTTP, then submitted. Document types: ${types.rows.map((r) => `${r.document_type} × ${r.n}`).join(', ')}.`,
    '',
    '| figure | target | measured | met |',
    '|---|---|---|---|',
    row(
      'CPU per verification, API + worker',
      '≤ 2.0 s',
      `${cpuTotal.toFixed(2)} s (API ${apiCpu.toFixed(2)} s, worker ${workerCpu.toFixed(2)} s)`,
      cpuTotal <= 2,
    ),
    row('p50 submission → decision', '≤ 1.0 s', secs(e2e.p50), e2e.p50 <= 1000),
    row('p95 submission → decision', '≤ 1.5 s', secs(e2e.p95), e2e.p95 <= 1500),
    row(
      'API event-loop delay p99 (uploads being checked)',
      '≤ 20 ms',
      `${apiLoop.p99} ms`,
      apiLoop.p99 <= 20,
    ),
    row('API event-loop delay max', '≤ 50 ms', `${apiLoop.max} ms`, apiLoop.max <= 50),
    row('verifications per minute, one worker process', '≥ 30', perMinute.toFixed(1), perMinute >= 30),
    row('worker peak RSS (VmHWM)', '≤ 1.5 GB', gb(memory.hwmMb), memory.hwmMb <= 1536),
    row(
      'genuine sessions approved',
      `${all.length} of ${all.length}`,
      `${approved} of ${all.length}`,
      approved === all.length,
    ),
    '',
    `Decisions: ${[...outcomes].map(([k, v]) => `${k} × ${v}`).join(', ')}.`,
    '',
    `CPU: user + system seconds of each process (all its threads, /proc/<pid>/stat). API: over phase 1 (${backlog} sessions walked through the flow with no worker running) ÷ ${backlog}. Worker: over the drain of those ${backlog} (its start-up and model warm-up${warmUpS ? `, ${warmUpS} s,` : ''} excluded) ÷ ${backlog}. PostgreSQL's own CPU is not counted. On ${os.cpus().length} cores free of other work, one machine running both roles could not exceed ${((os.cpus().length * 60) / cpuTotal).toFixed(1)} verifications per minute (an upper bound, not a measurement).`,
    '',
    `Throughput: the ${backlog} sessions of phase 1, drained by one worker process in ${secs(drainMs)} from its first check job to the last decision: ${perMinute.toFixed(1)} per minute.`,
    '',
    `Latency (phase 3): ${latencyRuns} sessions with the worker running, submissions spread as people's are: p50 ${secs(e2e.p50)}, p95 ${secs(e2e.p95)}, max ${secs(e2e.max)}.`,
    '',
    `API event-loop delay (bench/lib/event-loop-probe.mjs, 10 ms resolution) while the flows ran — the capture check on each document photo, the live check, every request: phase 1 p50 ${apiLoop1.p50} ms, p99 ${apiLoop1.p99} ms, max ${apiLoop1.max} ms (${apiLoop1.samples} samples); phase 3 p50 ${apiLoop3.p50} ms, p99 ${apiLoop3.p99} ms, max ${apiLoop3.max} ms (${apiLoop3.samples} samples). Worker event-loop delay while it drained: p50 ${workerLoop.p50} ms, p99 ${workerLoop.p99} ms, max ${workerLoop.max} ms (in \`mimoto start\`, all roles in one process, an API request waits as long).`,
    '',
    `Worker: VmHWM ${gb(memory.hwmMb)}, VmRSS at the end ${gb(memory.rssMb)}, largest sampled ${gb(memory.peakSampledMb)}; ${exitedOnSigterm ? 'it exited by itself after SIGTERM' : '**it did not exit within 30 s of SIGTERM** and was killed'}.`,
    '',
    'Per check (check_results.duration_ms, phase 3):',
    '',
    '| check | n | p50 | p95 |',
    '|---|---|---|---|',
    ...checks.rows.map((r) => `| ${r.check_id} | ${r.n} | ${secs(Number(r.p50))} | ${secs(Number(r.p95))} |`),
    '',
  );
} finally {
  await worker?.stop();
  await api.stop();
  await db.end();
  await scratch.drop();
  rmSync(scratchDir, { recursive: true, force: true });
}
const text = report.join('\n');
console.log(`\n${text}`);
if (values.json && summary) writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
if (!values['no-write'] && text) writeFileSync(path.join(repoDir, 'docs/benchmarks/pipeline.md'), text);
