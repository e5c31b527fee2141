// The benches still run: a tiny run of each, as `npm run bench:…` starts it, that must complete and
// write its figures. Not a timing test (the figures are whatever the machine gives); a bench that
// breaks at set-up — as bench:webhooks once did, on a key create-session came to check — fails here.
// bench:webhooks and bench:pipeline need PostgreSQL (DATABASE_URL): their API and worker are
// separate processes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { POSTGRES_URL } from '../helpers/test-platform.ts';

const skip = POSTGRES_URL ? false : 'needs PostgreSQL: set DATABASE_URL (the benches run on PostgreSQL)';
const dir = mkdtempSync(path.join(tmpdir(), 'mimoto-bench-smoke-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function runBench(file: string, args: string[], timeout: number) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: POSTGRES_URL ?? '' },
    timeout,
  });
  assert.equal(
    result.status,
    0,
    `${file} failed:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`,
  );
}

test('bench:webhooks delivers a small backlog, every signature valid', { skip }, () => {
  const json = path.join(dir, 'webhooks.json');
  runBench(
    'bench/webhooks.bench.ts',
    ['--events', '40', '--endpoints', '2', '--rounds', '0', '--json', json],
    300_000,
  );
  const { throughput } = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(throughput.received, 40);
  assert.equal(throughput.badSignatures, 0);
  assert.ok(throughput.deliveriesPerSecond > 0);
});

test('bench:pipeline takes one session through an API and a worker process to a decision', { skip }, () => {
  const json = path.join(dir, 'pipeline.json');
  // --pace fast: a person's pace is 20 s a flow; the figures of so small a run are not the point.
  runBench(
    'bench/pipeline.bench.ts',
    [
      '--backlog',
      '1',
      '--sessions',
      '1',
      '--concurrency',
      '1',
      '--pace',
      'fast',
      '--no-write',
      '--json',
      json,
    ],
    900_000,
  );
  const figures = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(figures.sessions, 2);
  assert.ok(figures.cpuSecondsPerVerification.api > 0, 'the API process used CPU');
  assert.ok(figures.cpuSecondsPerVerification.worker > 0, 'the worker process used CPU');
  assert.ok(figures.p50Seconds > 0);
  assert.ok(figures.apiEventLoopDelayMs.max >= figures.apiEventLoopDelayMs.p99);
});

test('bench:inspect-startup times mimoto inspect document and its reading', () => {
  const json = path.join(dir, 'inspect.json');
  runBench('bench/inspect-startup.bench.ts', ['--no-write', '--json', json], 600_000);
  const figures = JSON.parse(readFileSync(json, 'utf8'));
  assert.ok(figures.wallSeconds > figures.warmReadingSeconds);
  assert.ok(figures.importSeconds > 0 && figures.warmReadingSeconds > 0);
});
