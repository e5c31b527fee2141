// API throughput and latency: create-session and session detail on PostgreSQL and on PGlite,
// against two yardsticks measured in the same run, the same way: a bare fastify hello-world, and the
// bare-insert server (fastify + one INSERT of the body), the ceiling of any create-session that
// commits to PostgreSQL. The target is a ratio to bare-insert, so that a shared, loaded machine
// moves both sides alike.
//
//   npm run bench:api -- [--duration 10] [--connections 10] [--pipelining 1] [--warmup 3]
//                        [--databases postgres,pglite] [--pool 10] [--json FILE]
//
// DATABASE_URL: the PostgreSQL server to use (default postgres://postgres@127.0.0.1:5432); the
// bench creates a database of its own there and drops it afterwards.
//
// How it is measured (docs/benchmarks/api.md):
// - every server runs in this process, one at a time, on 127.0.0.1; the load generator is a child
//   process, the same one for every target, so on a 2-core machine the server has one core and
//   autocannon the other (PostgreSQL's backends share them);
// - each measurement follows a warm-up of the same load, whose figures are discarded;
// - latencies are every response's own time (exact p50/p95/p99), not autocannon's whole-millisecond
//   histogram;
// - bare-insert is measured before and after mimoto and the ratio taken to the mean of the two;
// - the latency target is an open-loop run (paced-load.ts) at half the create-session max rate.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  CALLBACK_PREFIX,
  type DatabaseChoice,
  type MimotoServer,
  type RunningServer,
  startBareInsertServer,
  startBareServer,
  startMimotoServer,
} from './lib/bench-servers.ts';
import { ownCpuSeconds, postgresBackendCpu } from './lib/cpu-usage.ts';
import { type LoadGenerator, startLoadGenerator } from './lib/load-generator.ts';
import type { LoadMode, LoadResult, LoadTarget } from './lib/load-spec.ts';

/** create-session on PostgreSQL against bare-insert, and its p99 at half its own max rate. */
const TARGET_SHARE_OF_BARE_INSERT = 0.5;
const TARGET_P99_MS = 30;
const HALF_CAPACITY = 'paced, ½ of max';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    pipelining: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '3' },
    databases: { type: 'string', default: 'postgres,pglite' },
    pool: { type: 'string' },
    json: { type: 'string' },
  },
});
const positive = (name: string, raw: string | undefined) => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return value;
};
const durationS = positive('duration', values.duration);
const connections = positive('connections', values.connections);
const pipelining = positive('pipelining', values.pipelining);
const warmupS = Number(values.warmup);
if (!Number.isInteger(warmupS) || warmupS < 0) throw new Error('--warmup must be a whole number ≥ 0');
const poolSize = values.pool === undefined ? undefined : positive('pool', values.pool);
const databases = values.databases.split(',').map((name) => name.trim());
for (const name of databases) {
  if (name !== 'postgres' && name !== 'pglite') throw new Error(`unknown database '${name}'`);
}
const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

const CREATE_BODY = JSON.stringify({
  callbackUrl: CALLBACK_PREFIX,
  clientIpAddress: '203.0.113.7',
  state: 'bench-state-0123456789',
  preRegisteredInfo: {
    lastName: '山田',
    firstName: '太郎',
    birthDate: '1990-04-01',
    address: '東京都千代田区霞が関1丁目2番3号',
  },
});

interface Row {
  target: string;
  database: string;
  load: string;
  result: LoadResult;
  /** CPU time per response of the server process (PGlite included) and of PostgreSQL's backends. */
  serverCpuUs: number;
  postgresCpuUs?: number;
}

const rows: Row[] = [];

async function measure(
  generator: LoadGenerator,
  row: Pick<Row, 'target' | 'database' | 'load'>,
  target: LoadTarget,
  mode: LoadMode,
  server?: MimotoServer,
): Promise<LoadResult> {
  const spec = { target, mode, connections, pipelining };
  if (warmupS > 0) await generator.run({ ...spec, durationS: warmupS });
  // After the warm-up, so that the pool's connections exist.
  const postgresCpu =
    server?.databaseUrl === undefined
      ? undefined
      : await postgresBackendCpu(server.platform.database, server.databaseUrl);
  const serverCpuBefore = ownCpuSeconds();
  const postgresCpuBefore = postgresCpu?.();
  const result = await generator.run({ ...spec, durationS });
  const perResponseUs = (seconds: number) => (1e6 * seconds) / Math.max(1, result.completed);
  rows.push({
    ...row,
    result,
    serverCpuUs: perResponseUs(ownCpuSeconds() - serverCpuBefore),
    ...(postgresCpu && postgresCpuBefore !== undefined
      ? { postgresCpuUs: perResponseUs(postgresCpu() - postgresCpuBefore) }
      : {}),
  });
  process.stderr.write(
    `  ${row.target} / ${row.database} / ${row.load}: ${result.reqPerSec.toFixed(0)} req/s, ` +
      `p50 / p95 / p99 ${result.latency.p50Ms.toFixed(2)} / ${result.latency.p95Ms.toFixed(2)} / ${result.latency.p99Ms.toFixed(2)} ms\n`,
  );
  return result;
}

async function measureBare(generator: LoadGenerator, label: string): Promise<LoadResult> {
  const bare: RunningServer = await startBareServer();
  try {
    return await measure(
      generator,
      { target: 'hello-world', database: '-', load: label },
      { origin: bare.origin, method: 'GET', path: '/', headers: {} },
      { kind: 'max' },
    );
  } finally {
    await bare.close();
  }
}

/**
 * The ceiling for create-session on PostgreSQL: a server that only INSERTs the body (bench-servers.ts).
 * `pacedRate`: also its p99 at that open-loop rate — the machine's own floor for the latency target.
 */
async function measureBareInsert(
  generator: LoadGenerator,
  label: string,
  pacedRate?: number,
): Promise<LoadResult> {
  const server = await startBareInsertServer(postgresUrl, poolSize);
  const target: LoadTarget = {
    origin: server.origin,
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/json' },
    body: CREATE_BODY,
  };
  try {
    const max = await measure(
      generator,
      { target: 'bare-insert', database: 'PostgreSQL', load: label },
      target,
      { kind: 'max' },
      server,
    );
    if (pacedRate !== undefined) {
      await measure(
        generator,
        { target: 'bare-insert', database: 'PostgreSQL', load: `${pacedRate}/s paced (control)` },
        target,
        { kind: 'paced', rate: pacedRate },
        server,
      );
    }
    return max;
  } finally {
    await server.close();
  }
}

async function measureMimoto(generator: LoadGenerator, choice: DatabaseChoice) {
  const database = choice.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  process.stderr.write(`starting mimoto on ${database}…\n`);
  const server = await startMimotoServer(choice);
  try {
    const authorization = `Bearer ${server.apiKey}`;
    const create: LoadTarget = {
      origin: server.origin,
      method: 'POST',
      path: '/v1/verification-sessions',
      headers: { authorization, 'content-type': 'application/json' },
      body: CREATE_BODY,
    };
    const response = await fetch(`${server.origin}${create.path}`, {
      method: 'POST',
      headers: create.headers,
      body: CREATE_BODY,
    });
    if (response.status !== 201) {
      throw new Error(`create-session answered ${response.status}: ${await response.text()}`);
    }
    const { sessionId } = (await response.json()) as { sessionId: string };
    const detail: LoadTarget = {
      origin: server.origin,
      method: 'GET',
      path: `/v1/verification-sessions/${sessionId}`,
      headers: { authorization },
    };

    const createMax = await measure(
      generator,
      { target: 'create-session', database, load: 'max' },
      create,
      { kind: 'max' },
      server,
    );
    await measure(
      generator,
      { target: 'get-session', database, load: 'max' },
      detail,
      { kind: 'max' },
      server,
    );
    // The latency target's load: half of what this server sustains.
    const half = Math.max(1, Math.round(createMax.reqPerSec / 2));
    await measure(
      generator,
      { target: 'create-session', database, load: `${half}/s ${HALF_CAPACITY}` },
      create,
      { kind: 'paced', rate: half },
      server,
    );
  } finally {
    await server.close();
  }
}

interface Yardsticks {
  /** Mean req/s of the two hello-world runs. */
  bare: number;
  /** Mean req/s of the two bare-insert runs (PostgreSQL only). */
  bareInsert?: number;
}

const percent = (value: number, of: number | undefined) =>
  of === undefined ? '-' : `${((100 * value) / of).toFixed(1)} %`;

function printTable(yardsticks: Yardsticks) {
  const header = [
    'target',
    'database',
    'load',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'of bare',
    'of bare-insert',
    'non-2xx',
    'errors',
    'server CPU µs/req',
    'PG CPU µs/req',
  ];
  const lines = rows.map(({ target, database, load, result, serverCpuUs, postgresCpuUs }) => {
    const max = load.startsWith('max');
    return [
      target,
      database,
      load,
      result.reqPerSec.toFixed(0),
      result.latency.p50Ms.toFixed(2),
      result.latency.p95Ms.toFixed(2),
      result.latency.p99Ms.toFixed(2),
      max ? percent(result.reqPerSec, yardsticks.bare) : '-',
      max && database === 'PostgreSQL' ? percent(result.reqPerSec, yardsticks.bareInsert) : '-',
      String(result.non2xx),
      result.timeouts > 0 ? `${result.errors} (${result.timeouts} unanswered)` : String(result.errors),
      serverCpuUs.toFixed(0),
      postgresCpuUs === undefined ? '-' : postgresCpuUs.toFixed(0),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] as string).length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

const margin = (ok: boolean, goal: string, distance: number, digits: number, unit: string) =>
  ok
    ? `meets ${goal} with ${distance.toFixed(digits)} ${unit} to spare`
    : `misses ${goal} by ${distance.toFixed(digits)} ${unit}`;

/** The target line, then one line per other measured target for reference. */
function printVerdicts(yardsticks: Yardsticks) {
  console.log(
    `\nTarget: create-session on PostgreSQL ≥ ${TARGET_SHARE_OF_BARE_INSERT * 100} % of bare-insert's req/s ` +
      `(fastify + one INSERT, same run, same load), with p99 ≤ ${TARGET_P99_MS} ms at half its max rate (paced).`,
  );
  let verdict: boolean | undefined;
  for (const row of rows.filter(
    (r) => r.load === 'max' && !['hello-world', 'bare-insert'].includes(r.target),
  )) {
    const half = rows.find(
      (r) => r.target === row.target && r.database === row.database && r.load.endsWith(HALF_CAPACITY),
    );
    const clean = row.result.non2xx === 0 && row.result.errors === 0;
    let line = `${row.target} on ${row.database}: ${percent(row.result.reqPerSec, yardsticks.bare)} of bare`;
    const isTarget = row.target === 'create-session' && row.database === 'PostgreSQL';
    let met = clean;
    if (row.database === 'PostgreSQL' && yardsticks.bareInsert !== undefined) {
      const share = row.result.reqPerSec / yardsticks.bareInsert;
      const shareOk = share >= TARGET_SHARE_OF_BARE_INSERT;
      line += `, ${(share * 100).toFixed(1)} % of bare-insert`;
      if (isTarget) {
        line += ` (${margin(shareOk, `≥ ${TARGET_SHARE_OF_BARE_INSERT * 100} %`, Math.abs(share - TARGET_SHARE_OF_BARE_INSERT) * 100, 1, 'points')})`;
      }
      met = met && shareOk;
    }
    if (half) {
      const p99 = half.result.latency.p99Ms;
      const rate = Number(half.load.split('/')[0]);
      const rateOk =
        half.result.reqPerSec >= rate * 0.97 && half.result.non2xx === 0 && half.result.errors === 0;
      const p99Ok = p99 <= TARGET_P99_MS;
      line +=
        `; at ${half.load.split(' ')[0]} (half its max) p50 / p95 / p99 ` +
        `${half.result.latency.p50Ms.toFixed(2)} / ${half.result.latency.p95Ms.toFixed(2)} / ${p99.toFixed(2)} ms` +
        (isTarget
          ? ` (${margin(p99Ok, `≤ ${TARGET_P99_MS} ms`, Math.abs(TARGET_P99_MS - p99), 2, 'ms')})`
          : '') +
        (rateOk ? '' : `; only ${half.result.reqPerSec.toFixed(0)} req/s served cleanly`);
      met = met && rateOk && p99Ok;
    }
    const control = rows.find((r) => r.target === 'bare-insert' && r.load.endsWith('(control)'));
    if (isTarget && control) {
      line += `; bare-insert at the same rate: p99 ${control.result.latency.p99Ms.toFixed(2)} ms`;
    }
    if (!clean) line += ` — ${row.result.non2xx} non-2xx, ${row.result.errors} errors`;
    if (isTarget) verdict = met;
    console.log(`  ${isTarget ? (met ? 'MET   ' : 'MISSED') : 'info  '} ${line}`);
  }
  if (verdict === undefined) console.log('  (PostgreSQL not measured: no verdict on the target)');
}

async function main() {
  const [load1, load5] = os.loadavg();
  console.log(
    `mimoto API bench — node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ` +
      `load average ${load1?.toFixed(2)} / ${load5?.toFixed(2)}`,
  );
  console.log(
    `autocannon: ${connections} connections, pipelining ${pipelining}, ${durationS} s per target after ` +
      `${warmupS} s warm-up; servers in this process, load generator in a child process, all on 127.0.0.1\n`,
  );
  const generator = startLoadGenerator();
  try {
    const bareStart = await measureBare(generator, 'max (first)');
    const postgres = databases.includes('postgres');
    const insertStart = postgres ? await measureBareInsert(generator, 'max (first)') : undefined;
    for (const name of databases) {
      await measureMimoto(
        generator,
        name === 'postgres' ? { kind: 'postgres', adminUrl: postgresUrl, poolSize } : { kind: 'pglite' },
      );
    }
    // Both yardsticks again at the end: on a shared machine the spread between the two shows the noise.
    // bare-insert also at create-session's half rate: the p99 the machine allows there at all.
    const half = rows.find(
      (r) => r.target === 'create-session' && r.database === 'PostgreSQL' && r.load.endsWith(HALF_CAPACITY),
    );
    const insertEnd = postgres
      ? await measureBareInsert(generator, 'max (last)', half ? Number(half.load.split('/')[0]) : undefined)
      : undefined;
    const bareEnd = await measureBare(generator, 'max (last)');
    const yardsticks: Yardsticks = {
      bare: (bareStart.reqPerSec + bareEnd.reqPerSec) / 2,
      ...(insertStart && insertEnd ? { bareInsert: (insertStart.reqPerSec + insertEnd.reqPerSec) / 2 } : {}),
    };
    console.log('');
    printTable(yardsticks);
    console.log(
      `\nratios of max rows: to the mean of the two hello-world runs (${yardsticks.bare.toFixed(0)} req/s)` +
        (yardsticks.bareInsert === undefined
          ? '.'
          : ` and of the two bare-insert runs (${yardsticks.bareInsert.toFixed(0)} req/s).`),
    );
    printVerdicts(yardsticks);
    const dirty = rows.filter((r) => r.result.non2xx > 0 || r.result.errors > 0);
    console.log(
      dirty.length === 0
        ? '\nnon-2xx responses and errors: none in any run.'
        : `\nWARNING: non-2xx or errors in ${dirty.map((r) => `${r.target}/${r.database}/${r.load}`).join(', ')}`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        JSON.stringify(
          {
            targets: { shareOfBareInsert: TARGET_SHARE_OF_BARE_INSERT, p99MsAtHalfMax: TARGET_P99_MS },
            connections,
            pipelining,
            durationS,
            warmupS,
            yardsticks,
            rows,
          },
          null,
          2,
        ),
      );
    }
    const [after1] = os.loadavg();
    console.log(`load average at the end: ${after1?.toFixed(2)}`);
  } finally {
    generator.close();
  }
}

await main();
