// OCR check accuracy on synthetic documents: field exact-match rates by
// document type and capture quality, how often a wrong value is passed as `success`, and time per
// document.
//
//   npm run bench:ocr-accuracy -- [--count 40] [--seed 6] [--out /tmp/mimoto-ocr-bench] [--threshold-table]
//
// Documents are made with the synth library directly (record → layout → virtual camera, the same
// code as `mimoto synth`, without the selfie and liveness captures this bench does not need), K per
// document type cycling through clean/typical/poor, and cached in --out (delete it to regenerate).
// Exact match: name = lastName and firstName both equal; birth date and document number equal;
// address equal after NFKC and removing spaces.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOcrCheck } from '../src/checks/ocr/ocr.check.ts';
import { terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { OCR_CONFIDENCE_THRESHOLD, type OcrCheckResult } from '../src/checks/ocr/ocr-result.ts';
import { percentile } from '../src/platform/math/percentile.ts';
import { drawCaptureParameters, QUALITIES, type Quality } from '../src/synth/capture-parameters.ts';
import {
  createDocumentRecord,
  DOCUMENT_TYPES,
  type DocumentType,
  hasBackSide,
} from '../src/synth/document-record.ts';
import { facePeople, sexOfPerson } from '../src/synth/faces.ts';
import { REFERENCE_DATE } from '../src/synth/generate-corpus.ts';
import { photographDocument } from '../src/synth/photograph-document.ts';
import { Random } from '../src/synth/random.ts';
import { renderDocumentSide } from '../src/synth/render-document.ts';
import { scoreOcrFields } from './lib/ocr-scoring.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '40' },
    seed: { type: 'string', default: '6' },
    out: { type: 'string', default: '/tmp/mimoto-ocr-bench' },
    'threshold-table': { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const outDir = `${values.out}-s${seed}-n${count}`;

interface Truth {
  id: string;
  documentType: DocumentType;
  quality: Quality;
  lastName: string;
  firstName: string;
  birthDate: string;
  documentNumber: string;
  address: string;
  hasBack: boolean;
}

async function generate(): Promise<Truth[]> {
  const truthFile = join(outDir, 'truth.json');
  if (existsSync(truthFile)) return JSON.parse(readFileSync(truthFile, 'utf8')) as Truth[];
  mkdirSync(outDir, { recursive: true });
  const people = await facePeople();
  const names = [...people.keys()];
  const truths: Truth[] = [];
  const started = performance.now();
  for (const documentType of DOCUMENT_TYPES) {
    for (let i = 0; i < count; i++) {
      const id = `${documentType}-${i}`;
      const quality = QUALITIES[i % 3] as Quality;
      const random = new Random(`${seed}:ocr-bench:${id}`);
      const person = random.pick(names);
      const portrait = random.pick(people.get(person) ?? []);
      const record = createDocumentRecord(
        random.fork('record'),
        documentType,
        sexOfPerson(person),
        REFERENCE_DATE,
      );
      for (const side of hasBackSide(documentType) ? (['front', 'back'] as const) : (['front'] as const)) {
        const flat = await renderDocumentSide(record, side, portrait);
        if (!flat) continue;
        const params = drawCaptureParameters(random.fork(side), quality, 1280);
        writeFileSync(join(outDir, `${id}-${side}.jpg`), await photographDocument(flat, params));
      }
      const { identity } = record;
      truths.push({
        id,
        documentType,
        quality,
        lastName: identity.lastName,
        firstName: identity.firstName,
        birthDate: identity.birthDate,
        documentNumber: record.documentNumber,
        address: documentType === 'passport' ? identity.prefectureLatin : identity.address,
        hasBack: hasBackSide(documentType),
      });
    }
    process.stderr.write(
      `generated ${documentType} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
    );
  }
  writeFileSync(truthFile, JSON.stringify(truths, null, 1));
  return truths;
}

interface Row {
  truth: Truth;
  result: OcrCheckResult;
  ms: number;
  name: boolean;
  birthDate: boolean;
  documentNumber: boolean;
  address: boolean;
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

async function main() {
  const truths = await generate();
  const check = createOcrCheck({ now: () => new Date(`${REFERENCE_DATE}T00:00:00Z`) });
  // Load the engines before timing.
  const warm = truths[0];
  if (warm)
    await check.run({
      front: readFileSync(join(outDir, `${warm.id}-front.jpg`)),
      expectedDocumentType: warm.documentType,
    });
  const rows: Row[] = [];
  for (const truth of truths) {
    const front = readFileSync(join(outDir, `${truth.id}-front.jpg`));
    const back = truth.hasBack ? readFileSync(join(outDir, `${truth.id}-back.jpg`)) : undefined;
    const t0 = performance.now();
    const result = await check.run({
      front,
      ...(back ? { back } : {}),
      expectedDocumentType: truth.documentType,
    });
    const ms = performance.now() - t0;
    rows.push({ truth, result, ms, ...scoreOcrFields(truth, result) });
  }
  await terminateOcrEngine();

  const lines: string[] = [];
  lines.push(
    `Corpus: ${count} genuine documents per type (seed ${seed}), qualities cycling clean/typical/poor; ${rows.length} documents.`,
  );
  lines.push('');
  lines.push(
    '| type | quality | n | name | birth date | document no. | address | all three key fields | status success | wrong key field passed as success |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  const groups: [string, string, Row[]][] = [];
  for (const type of DOCUMENT_TYPES)
    for (const quality of QUALITIES)
      groups.push([
        type,
        quality,
        rows.filter((r) => r.truth.documentType === type && r.truth.quality === quality),
      ]);
  for (const quality of QUALITIES)
    groups.push(['**all**', quality, rows.filter((r) => r.truth.quality === quality)]);
  for (const [type, quality, group] of groups) {
    const n = group.length;
    const count = (f: (r: Row) => boolean) => group.filter(f).length;
    const key = (r: Row) => r.name && r.birthDate && r.documentNumber;
    lines.push(
      `| ${type} | ${quality} | ${n} | ${pct(
        count((r) => r.name),
        n,
      )} | ${pct(
        count((r) => r.birthDate),
        n,
      )} | ${pct(
        count((r) => r.documentNumber),
        n,
      )} | ${pct(
        count((r) => r.address),
        n,
      )} | ${pct(count(key), n)} | ${pct(
        count((r) => r.result.result.status === 'success'),
        n,
      )} | ${count((r) => r.result.result.status === 'success' && !key(r))} |`,
    );
  }
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  lines.push('');
  lines.push(
    `Time per document (front + back, one process, engines warm): p50 ${(percentile(times, 50) / 1000).toFixed(2)} s, p95 ${(
      percentile(times, 95) / 1000
    ).toFixed(2)} s, max ${((times[times.length - 1] ?? 0) / 1000).toFixed(2)} s.`,
  );
  const types = rows.filter((r) => r.result.result.detectedDocumentType === r.truth.documentType).length;
  const unsupported = rows.filter((r) => r.result.result.unsupportedDocumentType).length;
  lines.push(
    `Document type detected correctly: ${pct(types, rows.length)}; reported unsupported: ${unsupported}; threshold ${OCR_CONFIDENCE_THRESHOLD}.`,
  );

  if (values['threshold-table']) {
    lines.push('');
    lines.push(
      '| threshold | accepted clean | accepted typical | accepted poor | wrong key field among accepted |',
    );
    lines.push('|---|---|---|---|---|');
    for (const threshold of [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
      const accepted = rows.filter((r) => (r.result.result.confidence ?? 0) >= threshold);
      const by = (q: Quality) =>
        pct(
          accepted.filter((r) => r.truth.quality === q).length,
          rows.filter((r) => r.truth.quality === q).length,
        );
      const wrong = accepted.filter((r) => !(r.name && r.birthDate && r.documentNumber)).length;
      lines.push(
        `| ${threshold} | ${by('clean')} | ${by('typical')} | ${by('poor')} | ${wrong} of ${accepted.length} |`,
      );
    }
    lines.push('');
    lines.push('Misses (clean and typical):');
    for (const r of rows) {
      if (r.truth.quality === 'poor') continue;
      const wrong = (['name', 'birthDate', 'documentNumber', 'address'] as const).filter((f) => !r[f]);
      if (wrong.length === 0) continue;
      const p = r.result.result.payload ?? {};
      lines.push(
        `- ${r.truth.id} (${r.truth.quality}, conf ${r.result.result.confidence}): ${wrong.join(', ')} — read ${JSON.stringify(
          {
            lastName: p.lastName,
            firstName: p.firstName,
            birthDate: p.birthDate,
            documentNumber: r.result.extras.documentNumber,
            address: p.address,
          },
        )}`,
      );
    }
  }
  console.log(lines.join('\n'));
}

await main();
