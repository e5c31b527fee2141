// `mimoto inspect document`'s start-up: how much of an operator's wait is the reading and how much
// the process getting ready (module imports, models loaded), written to docs/benchmarks/inspect.md.
//
//   npm run bench:inspect-startup -- [--type my_number_card] [--front FILE] [--back FILE] [--no-write] [--json FILE]
//
// - wall: `node bin/mimoto.js inspect document … --json` as an operator runs it, spawn to exit;
// - in a second fresh process: the import of the command's modules (what `mimoto inspect` loads
//   before reading), then the same reading twice in that process — the first pays the models'
//   loading, the second is the reading alone.
// Start-up = wall − the warm reading.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    type: { type: 'string', default: 'my_number_card' },
    front: { type: 'string', default: 'test/fixtures/corpus/my_number_card-genuine-0/front.jpg' },
    back: { type: 'string', default: 'test/fixtures/corpus/my_number_card-genuine-0/back.jpg' },
    'no-write': { type: 'boolean', default: false },
    json: { type: 'string' },
    measure: { type: 'boolean', default: false },
  },
});

if (values.measure) {
  // The second process: imports, then the reading cold and warm.
  const { readFileSync } = await import('node:fs');
  let t = performance.now();
  const inspect = await import('../src/main/inspect.ts');
  await import('../src/main/inspect-command.ts');
  const importMs = performance.now() - t;
  const input = {
    documentType: values.type as 'my_number_card',
    front: readFileSync(values.front),
    ...(values.back ? { back: readFileSync(values.back) } : {}),
  };
  t = performance.now();
  await inspect.inspectDocument(inspect.engineInThisThread, input);
  const coldMs = performance.now() - t;
  t = performance.now();
  await inspect.inspectDocument(inspect.engineInThisThread, input);
  const warmMs = performance.now() - t;
  const { terminateOcrEngine } = await import('../src/checks/ocr/index.ts');
  await terminateOcrEngine();
  console.log(JSON.stringify({ importMs, coldMs, warmMs }));
  process.exit(0);
}

const args = ['inspect', 'document', '--type', values.type, '--front', values.front, '--json'];
if (values.back) args.push('--back', values.back);
const loadBefore = os.loadavg();
let t = performance.now();
const cli = spawnSync(process.execPath, [path.join(repoDir, 'bin/mimoto.js'), ...args], {
  cwd: repoDir,
  encoding: 'utf8',
});
const wallMs = performance.now() - t;
if (cli.status !== 0) throw new Error(`mimoto inspect failed:\n${cli.stderr}`);
t = performance.now();
const measured = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    '--measure',
    '--type',
    values.type,
    '--front',
    values.front,
    ...(values.back ? ['--back', values.back] : []),
  ],
  { cwd: repoDir, encoding: 'utf8' },
);
if (measured.status !== 0) throw new Error(`measuring failed:\n${measured.stderr}`);
const { importMs, coldMs, warmMs } = JSON.parse(measured.stdout.trim().split('\n').at(-1)!);
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const figures = {
  wallSeconds: Number((wallMs / 1000).toFixed(2)),
  importSeconds: Number((importMs / 1000).toFixed(2)),
  firstReadingSeconds: Number((coldMs / 1000).toFixed(2)),
  warmReadingSeconds: Number((warmMs / 1000).toFixed(2)),
  startUpSeconds: Number(((wallMs - warmMs) / 1000).toFixed(2)),
  loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
};
const text = [
  '# `mimoto inspect` start-up',
  '',
  '<!-- Written by `npm run bench:inspect-startup` (bench/inspect-startup.bench.ts); do not edit by hand. -->',
  '',
  `Command: \`mimoto ${args.join(' ')}\`, ${new Date().toISOString().slice(0, 16)} UTC. Machine: ${os.cpus().length} cores, shared with other work: load average ${load(loadBefore)} at the start, ${load(os.loadavg())} at the end — figures are pessimistic.`,
  '',
  '| figure | measured |',
  '|---|---|',
  `| wall time, spawn to exit | ${s(wallMs)} |`,
  `| module imports before the reading | ${s(importMs)} |`,
  `| first reading in a process (models loaded on the way) | ${s(coldMs)} |`,
  `| the same reading again (warm) | ${s(warmMs)} |`,
  `| start-up = wall − warm reading | ${s(wallMs - warmMs)} |`,
  '',
  'The imports are the check registry (`src/checks/index.ts`), which loads every check with its runtime: tfjs with the face nets, Tesseract, Human. Every subcommand of `mimoto inspect` imports it to list the registered checks.',
  '',
].join('\n');
console.log(text);
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
if (!values['no-write']) writeFileSync(path.join(repoDir, 'docs/benchmarks/inspect.md'), text);
