// The thickness capture's measures on synthetic cards (src/synth/tilted-card.ts): for each card, its
// front and the card held tilted (edge showing), a cut-out paper copy and a phone screen tilted the
// same way, and the tilted card against another card's front of the same type (same-card check).
// Prints each measure and the counts the thresholds give (card-thickness.ts).
// Run: nice -n 10 node --import tsx bench/card-thickness.bench.ts [--count 12] [--seed thick]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  measureCardThickness,
  type ThicknessEvidence,
  thicknessCue,
  tiltedCaptureProblem,
} from '../src/checks/document-spoof/card-thickness.ts';
import { generateThicknessSample, type ThicknessSample } from '../src/synth/thickness-samples.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '12' },
    seed: { type: 'string', default: 'thick' },
    // Keep the generated photos between runs (tuning): a directory outside the repository.
    cache: { type: 'string' },
  },
});
const count = Number(values.count);
const types = ['drivers_license', 'my_number_card', 'residence_card'] as const;

async function sampleAt(i: number): Promise<ThicknessSample> {
  const file = values.cache ? path.join(values.cache, `${values.seed}-${i}.json`) : null;
  if (file && existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const bytes = (b64: string) => Buffer.from(b64, 'base64');
    return {
      ...stored,
      front: bytes(stored.front),
      tilted: Object.fromEntries(Object.entries(stored.tilted).map(([k, v]) => [k, bytes(v as string)])),
    };
  }
  const sample = await generateThicknessSample(`${values.seed}-${i}`, types[i % 3]!, {
    quality: i % 2 ? 'clean' : 'typical',
  });
  if (file) {
    mkdirSync(path.dirname(file), { recursive: true });
    const b64 = (b: Buffer) => b.toString('base64');
    writeFileSync(
      file,
      JSON.stringify({
        ...sample,
        front: b64(sample.front),
        tilted: Object.fromEntries(Object.entries(sample.tilted).map(([k, v]) => [k, b64(v)])),
      }),
    );
  }
  return sample;
}

const samples: ThicknessSample[] = [];
for (let i = 0; i < count; i++) samples.push(await sampleAt(i));

const rows: { kind: string; i: number; e: ThicknessEvidence; ms: number }[] = [];
for (const [i, s] of samples.entries()) {
  for (const kind of ['card', 'paper_copy', 'screen'] as const) {
    const started = performance.now();
    const e = await measureCardThickness(s.front, s.tilted[kind]);
    rows.push({ kind, i, e, ms: performance.now() - started });
  }
  // Another card of the same type (three samples on): its front against this tilted card.
  const other = samples[i + 3] ?? samples[i - 3];
  if (other) {
    const e = await measureCardThickness(other.front, s.tilted.card);
    rows.push({ kind: 'other_card', i, e, ms: 0 });
  }
}

for (const { kind, i, e, ms } of rows) {
  const edge = e.edge
    ? `${e.edge.side} ${e.edge.contrast} w${e.edge.widthPx}px (${e.edge.widthShare}) cov ${e.edge.coverage} opp ${e.edge.opposite}`
    : 'none';
  console.log(
    `${kind.padEnd(10)} #${String(i).padStart(2)} ${samples[i]!.documentType.padEnd(15)} tilt ${String(samples[i]!.parameters.capture.tiltX).padStart(5)} shade ${samples[i]!.parameters.edgeShade} | found ${e.found} read tilt ${e.tiltDegrees} same ${e.sameCard} edge ${edge} seen ${e.edgeSeen} | flow ${tiltedCaptureProblem(e) ?? 'ok'} cue ${thicknessCue(e).score}${ms ? ` ${Math.round(ms)} ms` : ''}`,
  );
}
for (const kind of ['card', 'paper_copy', 'screen', 'other_card']) {
  const of = rows.filter((r) => r.kind === kind);
  const flagged = of.filter((r) => thicknessCue(r.e).score > 0).length;
  const refused = of.filter((r) => tiltedCaptureProblem(r.e) !== null).length;
  console.log(`${kind}: ${of.length} photos, cue fired ${flagged}, refused at capture ${refused}`);
}
