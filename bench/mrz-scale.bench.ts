// The MRZ found and read anywhere, at every size (issue 42 point 4): synthetic captures of made-up
// documents of many states (src/synth/mrz-captures.ts: OCR-B at ICAO's fixed pitch) in four scenes
// — a whole A4 page around a passport's data page, the data page filling the frame, a card on a
// white sheet, a card filling the frame — at several photo widths, read as the OCR check reads a
// zone found anywhere (locate-mrz.ts `findMrz`: the MRZ model first, eng where check digits fail).
//
//   npm run bench:mrz-scale -- [--seeds 1000-1003] [--widths 350,600,1000,1600] [--scenes page,booklet,…]
//
// Validation seeds (1000–1999, src/synth/seed-ranges.ts) are the default: nothing was tuned on
// them. Prints, per width and per scene: exact (every line as printed), valid but wrong (every
// check digit holds on a misread zone: the dangerous kind), read but invalid, nothing found.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { findMrz } from '../src/checks/ocr/locate-mrz.ts';
import { getOcrEngineFor, terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { MRZ_SCENES, type MrzScene, mrzCapture } from '../src/synth/mrz-captures.ts';
import { seedUse } from '../src/synth/seed-ranges.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1000-1003' },
    widths: { type: 'string', default: '350,600,1000,1600' },
    scenes: { type: 'string', default: MRZ_SCENES.join(',') },
    verbose: { type: 'boolean', default: false },
  },
});
const [from, to = from] = (values.seeds ?? '').split('-').map(Number) as [number, number?];
const seeds = Array.from({ length: (to as number) - from + 1 }, (_, i) => from + i);
const widths = (values.widths ?? '').split(',').map(Number);
const scenes = (values.scenes ?? '').split(',') as MrzScene[];
const uses = new Set(seeds.map(seedUse));

type Outcome = 'exact' | 'valid but wrong' | 'invalid' | 'not found';
const tally = new Map<string, Record<Outcome, number>>();
const count = (key: string, o: Outcome) => {
  const t = tally.get(key) ?? { exact: 0, 'valid but wrong': 0, invalid: 0, 'not found': 0 };
  t[o]++;
  tally.set(key, t);
};

const mrz = await getOcrEngineFor(['mrz']);
const eng = await getOcrEngineFor(['eng']);
const started = Date.now();
const cpu = process.cpuUsage();
for (const seed of seeds)
  for (const scene of scenes)
    for (const width of widths) {
      const c = await mrzCapture(seed, scene, width);
      const found = await findMrz(mrz, c.image, eng);
      const r = found?.reading;
      const exact = !!r && r.lines.length === c.lines.length && r.lines.every((l, i) => l === c.lines[i]);
      const outcome: Outcome = !r ? 'not found' : exact ? 'exact' : r.valid ? 'valid but wrong' : 'invalid';
      count(`width ${width}`, outcome);
      count(`scene ${scene}`, outcome);
      count('all', outcome);
      if (values.verbose || outcome === 'valid but wrong')
        process.stdout.write(
          `seed ${seed} ${scene} ${width} px (${c.format}, ${c.pitchPx.toFixed(1)} px a character): ${outcome}${r && !exact ? `\n    read  ${r.lines.join(' / ')}\n    truth ${c.lines.join(' / ')}` : ''}\n`,
        );
    }
const used = process.cpuUsage(cpu);
await terminateOcrEngine();

const total = (t: Record<Outcome, number>) => Object.values(t).reduce((a, b) => a + b, 0);
process.stdout.write(
  `\nbench:mrz-scale — seeds ${from}–${to} (${[...uses].join(', ')}), scenes ${scenes.join(', ')}\n\n| captures | exact | valid but wrong | invalid | not found |\n|---|---|---|---|---|\n`,
);
const order = (key: string) => (key.startsWith('width') ? 0 : key.startsWith('scene') ? 1 : 2);
for (const [key, t] of [...tally].sort(([a], [b]) => order(a) - order(b)))
  process.stdout.write(
    `| ${key} | ${t.exact}/${total(t)} | ${t['valid but wrong']} | ${t.invalid} | ${t['not found']} |\n`,
  );
process.stdout.write(
  `\n${((Date.now() - started) / 1000).toFixed(0)} s wall, ${((used.user + used.system) / 1e6).toFixed(0)} s CPU, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
