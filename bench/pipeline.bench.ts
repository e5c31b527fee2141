// Pipeline speed: verifications through decision with the real pipeline and one
// worker process, written to docs/benchmarks/pipeline.md.
//
//   npm run bench:pipeline -- [--backlog 20] [--latency 10] [--no-write]
//
// DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the
// bench creates a database of its own there and drops it afterwards. PostgreSQL, because the worker
// is a separate process (`mimoto start --role worker`) and PGlite lives inside one process.
//
// - The API (`--role api` as bench/lib/bench-servers.ts runs it) is in this process; `mimoto simulate`'s
//   flow (src/simulate) completes each session over HTTP with a genuine persona.
// - Throughput: --backlog sessions are submitted while no worker runs, then one worker process is
//   started and drains them: decisions per minute from its first job to the last decision.
// - Latency: then, with that worker warm, --latency sessions are submitted one at a time, each after
//   the previous one is decided: submitted_at → decided_at, no queueing.
// - Per-check times: check_results.duration_ms (the job's own time, as stored by the pipeline).
// - Worker memory: /proc/<pid>/status VmRSS sampled every 250 ms, and VmHWM at the end.
// - Worker event-loop delay while it drains the backlog (bench/lib/event-loop-probe.mjs): in
//   `mimoto start` the API shares that loop.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { percentile } from '../src/platform/math/percentile.ts';
import { startMimotoServer, submitGenuineVerification } from './lib/bench-servers.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '20' },
    latency: { type: 'string', default: '10' },
    'no-write': { type: 'boolean', default: false },
  },
});
const backlog = Number(values.backlog);
const latencyRuns = Number(values.latency);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const signed = (x: number, unit: string) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} ${unit}`;
const uptime = () => {
  const [a, b, c] = os.loadavg();
  return `load average ${a!.toFixed(2)}, ${b!.toFixed(2)}, ${c!.toFixed(2)}`;
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mimoto-pipeline-bench-'));
const server = await startMimotoServer({ kind: 'postgres', adminUrl }, { MIMOTO_DATA_DIR: dataDir });
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();
const loadAtStart = uptime();

let seedCounter = 0;
const submitOne = () => submitGenuineVerification(server, ++seedCounter);

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
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- the worker process and its memory --------------------------------------------------------------

function startWorker() {
  const eventLoopFile = path.join(dataDir, 'event-loop.json');
  const probe = path.join(repoDir, 'bench/lib/event-loop-probe.mjs');
  const child = spawn(process.execPath, [path.join(repoDir, 'bin/mimoto.js'), 'start', '--role', 'worker'], {
    cwd: repoDir,
    env: {
      ...process.env,
      ...server.workerEnv,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${probe}`.trim(),
      MIMOTO_BENCH_EVENT_LOOP_FILE: eventLoopFile,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Resolves to the warm-up's seconds, which the worker prints when it is ready for jobs.
  const ready = new Promise<number | null>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const line = chunk.toString();
      if (line.includes('worker started')) {
        const warm = /warmed in ([\d.]+) s/.exec(line)?.[1];
        resolve(warm ? Number(warm) * 1000 : null);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  let peakRss = 0;
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (text: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, kb(status(), 'VmRSS'));
    } catch {}
  }, 250);
  return {
    ready,
    memory: () => {
      const text = status();
      return {
        rssMb: kb(text, 'VmRSS') / 1024,
        hwmMb: kb(text, 'VmHWM') / 1024,
        peakSampledMb: peakRss / 1024,
      };
    },
    /** The event-loop delay since the previous call (ms), from the probe: the first call starts it. */
    eventLoopDelay: async (): Promise<{ p50: number; p99: number; max: number; samples: number }> => {
      rmSync(eventLoopFile, { force: true });
      child.kill('SIGUSR2');
      const until = Date.now() + 5000;
      while (!existsSync(eventLoopFile)) {
        if (Date.now() > until) throw new Error('the worker wrote no event-loop figures');
        await new Promise((r) => setTimeout(r, 20));
      }
      return JSON.parse(readFileSync(eventLoopFile, 'utf8'));
    },
    /** User + system CPU seconds of the worker so far (all its threads). */
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
    },
    /** SIGTERM, then SIGKILL after 30 s: returns whether it exited by itself. */
    stop: async () => {
      clearInterval(sampler);
      const exited = new Promise<boolean>((r) => child.once('exit', () => r(true)));
      child.kill('SIGTERM');
      const byItself = await Promise.race([
        exited,
        new Promise<boolean>((r) => setTimeout(() => r(false), 30_000)),
      ]);
      if (!byItself) {
        child.kill('SIGKILL');
        await exited;
      }
      return byItself;
    },
  };
}

// ---- run ------------------------------------------------------------------------------------------

const report: string[] = [];
try {
  console.log(`submitting ${backlog} verifications with no worker running…`);
  const queued: string[] = [];
  for (let i = 0; i < backlog; i++) {
    queued.push(await submitOne());
    console.log(`  ${i + 1}/${backlog} submitted`);
  }
  const workerStarted = Date.now();
  const worker = startWorker();
  const warmUpMs = await worker.ready;
  console.log(`worker ready after ${secs(Date.now() - workerStarted)}; draining the backlog…`);
  const cpuBefore = worker.cpuSeconds();
  await worker.eventLoopDelay();
  await waitDecided(queued, 60 * 60_000);
  const cpuPerVerification = (worker.cpuSeconds() - cpuBefore) / backlog;
  const loopDelay = await worker.eventLoopDelay();
  const drained = await db.query(
    `SELECT min(c.completed_at - make_interval(secs => c.duration_ms / 1000.0)) AS first_start,
            max(d.decided_at) AS last_decision
       FROM check_results c JOIN decisions d ON d.session_id = c.session_id
      WHERE c.session_id = ANY($1)`,
    [queued],
  );
  const drainMs =
    new Date(drained.rows[0].last_decision).getTime() - new Date(drained.rows[0].first_start).getTime();
  const fromStartMs = new Date(drained.rows[0].last_decision).getTime() - workerStarted;
  const perMinute = (backlog / drainMs) * 60_000;
  console.log(
    `backlog of ${backlog} decided in ${secs(drainMs)} from the first job: ${perMinute.toFixed(1)}/min`,
  );

  console.log(`${latencyRuns} verifications one at a time…`);
  const single: string[] = [];
  for (let i = 0; i < latencyRuns; i++) {
    const id = await submitOne();
    await waitDecided([id], 10 * 60_000);
    single.push(id);
    console.log(`  ${i + 1}/${latencyRuns} decided`);
  }
  const memory = worker.memory();
  const exitedOnSigterm = await worker.stop();

  const latencies = await db.query(
    `SELECT extract(epoch FROM d.decided_at - s.submitted_at) * 1000 AS ms, d.status, d.reason
       FROM verification_sessions s JOIN decisions d ON d.session_id = s.id AND d.kind = 'automatic'
      WHERE s.id = ANY($1)`,
    [single],
  );
  const sorted = Float64Array.from(latencies.rows.map((r) => Number(r.ms))).sort();
  const e2e = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: percentile(sorted, 100) };
  const checks = await db.query(
    `SELECT check_id, percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
            percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95, count(*)::int AS n
       FROM check_results WHERE session_id = ANY($1) GROUP BY check_id ORDER BY check_id`,
    [single],
  );
  // Time between submission and the first check's start, and between the last check and the
  // decision: queue hand-offs (pg-boss polls each queue), not check work.
  const handoffs = await db.query(
    `SELECT extract(epoch FROM min(c.completed_at - make_interval(secs => c.duration_ms / 1000.0)) - s.submitted_at) * 1000 AS first_wait,
            extract(epoch FROM d.decided_at - max(c.completed_at)) * 1000 AS decision_wait
       FROM verification_sessions s
       JOIN check_results c ON c.session_id = s.id
       JOIN decisions d ON d.session_id = s.id AND d.kind = 'automatic'
      WHERE s.id = ANY($1) GROUP BY s.id, s.submitted_at, d.decided_at`,
    [single],
  );
  const median = (xs: number[]) => percentile(Float64Array.from(xs).sort(), 50);
  const firstWait = median(handoffs.rows.map((r) => Number(r.first_wait)));
  const decisionWait = median(handoffs.rows.map((r) => Number(r.decision_wait)));
  const outcomes = new Map<string, number>();
  for (const r of latencies.rows)
    outcomes.set(`${r.status} ${r.reason}`, (outcomes.get(`${r.status} ${r.reason}`) ?? 0) + 1);
  const loadAtEnd = uptime();
  const gb = (mb: number) => `${(mb / 1024).toFixed(2)} GB`;
  report.push(
    '# Pipeline speed',
    '',
    '<!-- Written by `npm run bench:pipeline` (bench/pipeline.bench.ts); do not edit by hand. -->',
    '',
    `Command: \`npm run bench:pipeline -- ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 16)} UTC, on PostgreSQL (${adminUrl.replace(/\/\/[^@]*@/, '//')}; a scratch database), one worker process (\`mimoto start --role worker\`), the API in the bench process. Machine: ${os.cpus().length} cores, ${gb(os.totalmem() / 2 ** 20)} RAM, shared with other work: ${loadAtStart} at the start, ${loadAtEnd} at the end — figures are pessimistic for a dedicated 2-core machine.`,
    '',
    'Every session is a genuine `mimoto simulate` persona (seeds 1…n): document photos uploaded and the live check done over HTTP, then submitted.',
    '',
    '| figure | target | measured | distance | met |',
    '|---|---|---|---|---|',
    `| p50 submission → decision | ≤ 2 s | ${secs(e2e.p50)} | ${signed((e2e.p50 - 2000) / 1000, 's')} | ${e2e.p50 <= 2000 ? 'yes' : '**no**'} |`,
    `| p95 submission → decision | ≤ 4 s | ${secs(e2e.p95)} | ${signed((e2e.p95 - 4000) / 1000, 's')} | ${e2e.p95 <= 4000 ? 'yes' : '**no**'} |`,
    `| verifications per minute, one worker process | ≥ 30 | ${perMinute.toFixed(1)} | ${signed(perMinute - 30, '/min')} | ${perMinute >= 30 ? 'yes' : '**no**'} |`,
    `| worker peak RSS (VmHWM) | ≤ 1.5 GB | ${gb(memory.hwmMb)} | ${signed((memory.hwmMb - 1536) / 1024, 'GB')} | ${memory.hwmMb <= 1536 ? 'yes' : '**no**'} |`,
    '',
    `Latency: ${latencyRuns} sessions submitted one at a time, each after the previous decision (no queueing): p50 ${secs(e2e.p50)}, p95 ${secs(e2e.p95)}, max ${secs(e2e.max)}. Decisions: ${[...outcomes].map(([k, v]) => `${k} × ${v}`).join(', ')}.`,
    '',
    `Throughput: ${backlog} sessions submitted before the worker started, drained in ${secs(drainMs)} from its first check job to the last decision (${secs(fromStartMs)} from spawning the process; ${warmUpMs === null ? 'the worker reported no model warm-up' : `before its first job the worker loaded and warmed the check models in ${secs(warmUpMs)}`}): ${perMinute.toFixed(1)} per minute. The worker used ${cpuPerVerification.toFixed(1)} CPU seconds per verification (all its threads), so on two cores free of other work it could not exceed ${(120 / cpuPerVerification).toFixed(1)} per minute (an upper bound, not a measurement).`,
    '',
    `Worker event-loop delay while it drained the backlog (bench/lib/event-loop-probe.mjs; in \`mimoto start\`, all roles, an API request waits as long): p50 ${loopDelay.p50} ms, p99 ${loopDelay.p99} ms, max ${loopDelay.max} ms over ${loopDelay.samples} samples.`,
    '',
    `Shutdown: the worker ${exitedOnSigterm ? 'exited by itself after SIGTERM' : '**did not exit within 30 s of SIGTERM** and was killed'}.`,
    '',
    `Worker memory: VmHWM ${gb(memory.hwmMb)}, VmRSS at the end ${gb(memory.rssMb)}, largest sampled VmRSS ${gb(memory.peakSampledMb)}.`,
    '',
    `Hand-offs (medians): submission → first check started ${secs(firstWait)}; last check done → decision ${secs(decisionWait)}. The checks chain (documentSpoofCheck and fraudSignalAnalysis wait for ocr and faceMatch, then the decision); the submission's transaction wakes the worker when it commits (a NOTIFY, \`JOBS_CHANNEL\` in src/platform/jobs/job-queue.ts; before it the first hop waited for the worker's next poll, every 0.5 s), the later ones start when the job before them ends (it wakes the worker's queues).`,
    '',
    "All sessions belong to one tenant and reuse the corpus's 8 faces, so fraudSignalAnalysis can find the same face under another identity in an earlier session: that, not a fault, is why some genuine sessions are not approved.",
    '',
    'Per check (check_results.duration_ms, the latency sessions):',
    '',
    '| check | n | p50 | p95 |',
    '|---|---|---|---|',
    ...checks.rows.map((r) => `| ${r.check_id} | ${r.n} | ${secs(Number(r.p50))} | ${secs(Number(r.p95))} |`),
    '',
  );
} finally {
  await db.end();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const text = report.join('\n');
console.log(`\n${text}`);
if (!values['no-write'] && text) writeFileSync(path.join(repoDir, 'docs/benchmarks/pipeline.md'), text);
