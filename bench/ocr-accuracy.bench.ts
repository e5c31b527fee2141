// OCR accuracy on the validation corpus: genuine Japanese documents drawn with breadth
// (src/synth/wide-identity.ts: many names with variant kanji, every prefecture's municipalities,
// 丁目/番地/号 and building notations, 0-digit era years and 元年; Gothic and Mincho faces; phone
// captures of every quality and width), read as the pipeline reads them (OCR, then
// documentSpoofCheck on its facts), scored field by field.
//
//   npm run bench:ocr-accuracy -- [--count 1000] [--seed 1000] [--types drivers_license,...]
//                                  [--time-budget S] [--misses FILE] [--reads FILE]
//                                  [--corpus wide|classic] [--unsupported N]
//
// --count documents in all, spread evenly over the types; --seed picks the corpus: seeds
// 1000–1999 are for validation only (the figures the docs report), 1–999 for tuning
// (src/synth/seed-ranges.ts). Documents are cached in --out (delete it to regenerate).
// --time-budget stops measuring after S seconds and says how many documents were measured.
// --unsupported N also offers N cards mimoto does not accept (health insurance, 住民基本台帳,
// student and cash cards: src/synth/unsupported-documents.ts) as the supported types in turn; none
// may be approvable.
// --reads writes every document's reading (status, confidence, fields, document check verdict),
// so two runs of the same corpus can be compared: the same image must read the same every time.
// Exact match: name = last and first names both equal; dates and number equal; address equal after
// NFKC and removing spaces. Approvable: OCR success (confidence ≥ the threshold) and
// documentSpoofCheck low, on a reference date the document is valid on.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { OCR_CONFIDENCE_THRESHOLD } from '../src/checks/ocr/ocr-result.ts';
import { type DocumentInspectionDetail, engineInThisThread, inspectDocument } from '../src/main/inspect.ts';
import { percentile } from '../src/platform/math/percentile.ts';
import { drawCaptureParameters, type Quality } from '../src/synth/capture-parameters.ts';
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
import { renderDocumentSide, renderLayout } from '../src/synth/render-document.ts';
import { seedUse, TUNING_SEEDS, VALIDATION_SEEDS } from '../src/synth/seed-ranges.ts';
import type { Typeface } from '../src/synth/text-paths.ts';
import {
  createUnsupportedCard,
  layoutUnsupportedFront,
  UNSUPPORTED_KINDS,
  type UnsupportedKind,
} from '../src/synth/unsupported-documents.ts';
import { createWideIdentityFor, wideAddress } from '../src/synth/wide-identity.ts';
import { squash } from './lib/ocr-scoring.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(VALIDATION_SEEDS.from) },
    types: { type: 'string', default: DOCUMENT_TYPES.join(',') },
    corpus: { type: 'string', default: 'wide' },
    out: { type: 'string', default: '/tmp/mimoto-ocr-corpus' },
    'time-budget': { type: 'string' },
    misses: { type: 'string' },
    reads: { type: 'string' },
    first: { type: 'string', default: '0' },
    unsupported: { type: 'string', default: '0' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const wide = values.corpus !== 'classic';
const types = values.types
  .split(',')
  .filter((t): t is DocumentType => (DOCUMENT_TYPES as readonly string[]).includes(t));
const outDir = `${values.out}-${wide ? 'wide' : 'classic'}-s${seed}`;
const budgetMs = values['time-budget'] ? Number(values['time-budget']) * 1000 : Number.POSITIVE_INFINITY;
const use = seedUse(seed);

interface Truth {
  id: string;
  documentType: DocumentType;
  quality: Quality;
  typeface: Typeface;
  width: number;
  lastName: string;
  firstName: string;
  birthDate: string;
  documentNumber: string;
  address: string;
  expiryDate: string;
  hasBack: boolean;
  /** A licence whose holder moved since issue: the address is the back's last 備考 row. */
  moved?: boolean;
}

/** Phones: most captures typical, some clean, some poor; widths from an old phone's to a new one's. */
function drawQuality(random: Random): Quality {
  const x = random.next();
  return x < 0.3 ? 'clean' : x < 0.8 ? 'typical' : 'poor';
}

/** A document's truth as cached in --out by an earlier run, or undefined. */
function cachedTruth<T>(id: string): T | undefined {
  const file = join(outDir, `${id}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

/** Whose face a document carries: one of the people, one of their photos. */
function drawHolder(random: Random, people: Map<string, string[]>) {
  const person = random.pick([...people.keys()]);
  return { portrait: random.pick(people.get(person) ?? []), sex: sexOfPerson(person) };
}

async function documentOf(
  documentType: DocumentType,
  i: number,
  people: Map<string, string[]>,
): Promise<Truth> {
  const id = `${documentType}-${i}`;
  const cached = cachedTruth<Truth>(id);
  if (cached) return cached;
  const random = new Random(`${seed}:ocr-corpus:${id}`);
  const { portrait, sex } = drawHolder(random, people);
  const identity = wide
    ? createWideIdentityFor(random.fork('identity'), documentType, sex, REFERENCE_DATE)
    : undefined;
  // The wide corpus's licence numbers are as issued, with their check digit, and a quarter of its
  // licence holders have moved since issue (the back's 備考 records the address they live at).
  // (A generator of its own: the other documents draw as they did before moves were drawn.)
  const moves = new Random(`${seed}:ocr-corpus:${id}:moves`);
  const moved = wide && documentType === 'drivers_license' && moves.chance(0.25);
  const formerAddresses = moved
    ? Array.from({ length: moves.chance(0.2) ? 2 : 1 }, () => wideAddress(moves).address)
    : [];
  const record = createDocumentRecord(random.fork('record'), documentType, sex, REFERENCE_DATE, identity, {
    issuedLicenceNumbers: wide,
    formerAddresses,
  });
  const quality = wide ? drawQuality(random) : (['clean', 'typical', 'poor'] as const)[i % 3]!;
  const typeface: Typeface = wide && random.chance(0.5) ? 'mincho' : 'gothic';
  const width = wide ? random.pick([960, 1280, 1280, 1600, 1920]) : 1280;
  for (const side of hasBackSide(documentType) ? (['front', 'back'] as const) : (['front'] as const)) {
    const flat = await renderDocumentSide(record, side, portrait, { typeface });
    if (!flat) continue;
    const params = drawCaptureParameters(random.fork(side), quality, width);
    writeFileSync(join(outDir, `${id}-${side}.jpg`), await photographDocument(flat, params));
  }
  const truth: Truth = {
    id,
    documentType,
    quality,
    typeface,
    width,
    lastName: record.identity.lastName,
    firstName: record.identity.firstName,
    birthDate: record.identity.birthDate,
    documentNumber: record.documentNumber,
    address: documentType === 'passport' ? record.identity.prefectureLatin : record.identity.address,
    expiryDate: record.expiryDate,
    hasBack: hasBackSide(documentType),
    ...(moved ? { moved } : {}),
  };
  writeFileSync(join(outDir, `${id}.json`), JSON.stringify(truth));
  return truth;
}

interface UnsupportedTruth {
  id: string;
  kind: UnsupportedKind;
  offeredAs: DocumentType;
  quality: Quality;
}

/** The i-th card of a kind mimoto does not accept, photographed as the corpus's, and the type it is offered as. */
async function unsupportedOf(i: number, people: Map<string, string[]>): Promise<UnsupportedTruth> {
  const kind = UNSUPPORTED_KINDS[i % UNSUPPORTED_KINDS.length] as UnsupportedKind;
  const offeredAs = types[Math.floor(i / UNSUPPORTED_KINDS.length) % types.length] as DocumentType;
  const id = `unsupported-${kind}-${i}`;
  const cached = cachedTruth<UnsupportedTruth>(id);
  if (cached) return cached;
  const random = new Random(`${seed}:ocr-corpus:${id}`);
  const { portrait, sex } = drawHolder(random, people);
  // A Japanese national's card (the cash card prints the name's Latin form).
  const identity = createWideIdentityFor(random.fork('identity'), 'drivers_license', sex, REFERENCE_DATE);
  const card = createUnsupportedCard(random.fork('card'), kind, identity, REFERENCE_DATE);
  const quality = drawQuality(random);
  const typeface: Typeface = random.chance(0.5) ? 'mincho' : 'gothic';
  const flat = await renderLayout(layoutUnsupportedFront(card, { typeface }), portrait);
  const params = drawCaptureParameters(random.fork('front'), quality, random.pick([960, 1280, 1600, 1920]));
  writeFileSync(join(outDir, `${id}-front.jpg`), await photographDocument(flat, params));
  const truth: UnsupportedTruth = { id, kind, offeredAs, quality };
  writeFileSync(join(outDir, `${id}.json`), JSON.stringify(truth));
  return truth;
}

const FIELDS = ['type', 'name', 'birthDate', 'address', 'documentNumber', 'expiryDate'] as const;
type Field = (typeof FIELDS)[number];

interface Row {
  truth: Truth;
  ok: Record<Field, boolean>;
  confident: boolean;
  approvable: boolean;
  verdict: string;
  ms: number;
  read: Record<string, string | null>;
}

function score(truth: Truth, d: DocumentInspectionDetail): Row {
  const f = d.inspection.fields;
  const o = d.inspection.ocr;
  const verdict =
    d.inspection.documentSpoofCheck.status === 'insufficient_quality'
      ? 'no verdict'
      : (d.inspection.documentSpoofCheck.risk ?? 'no verdict');
  const confident = o.status === 'success' && (o.confidence ?? 0) >= OCR_CONFIDENCE_THRESHOLD;
  return {
    truth,
    ok: {
      type: o.detectedDocumentType === truth.documentType,
      name: f.lastName === truth.lastName && f.firstName === truth.firstName,
      birthDate: f.birthDate === truth.birthDate,
      address: squash(f.address ?? '') === squash(truth.address),
      documentNumber: f.documentNumber === truth.documentNumber,
      expiryDate: f.expiryDate === truth.expiryDate,
    },
    confident,
    approvable: confident && verdict === 'low',
    verdict,
    ms: d.ms.total,
    read: {
      status: `${o.status} ${o.confidence}`,
      type: o.detectedDocumentType ?? null,
      name: `${f.lastName ?? ''} / ${f.firstName ?? ''}`,
      birthDate: f.birthDate,
      address: f.address,
      documentNumber: f.documentNumber,
      expiryDate: f.expiryDate,
    },
  };
}

// In this thread: one process's work per document, as a worker's (the pool's threads would only
// add their start-up to a machine shared with other work).
const engines = engineInThisThread;

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

async function main() {
  mkdirSync(outDir, { recursive: true });
  const people = await facePeople();
  const perType = Math.ceil(count / types.length);
  const first = Number(values.first);
  const plan: [DocumentType, number][] = [];
  // Interleaved, so a time budget cuts every type alike.
  for (let i = first; i < first + perType; i++)
    for (const t of types) if (plan.length < count) plan.push([t, i]);
  const started = performance.now();
  const rows: Row[] = [];
  let warmed = false;
  for (const [type, i] of plan) {
    if (performance.now() - started > budgetMs) break;
    const truth = await documentOf(type, i, people);
    const front = readFileSync(join(outDir, `${truth.id}-front.jpg`));
    const back = truth.hasBack ? readFileSync(join(outDir, `${truth.id}-back.jpg`)) : undefined;
    // Every record is valid on the corpus reference date (document-record.ts).
    const referenceDate = new Date(`${REFERENCE_DATE}T00:00:00Z`);
    if (!warmed) {
      await inspectDocument(engines, { documentType: type, front, ...(back ? { back } : {}), referenceDate });
      warmed = true;
    }
    const d = await inspectDocument(engines, {
      documentType: type,
      front,
      ...(back ? { back } : {}),
      referenceDate,
    });
    const row = score(truth, d);
    rows.push(row);
    const wrong = FIELDS.filter((f) => !row.ok[f]);
    process.stderr.write(
      `${truth.id} ${truth.quality} ${truth.typeface} ${truth.width}: ${wrong.length === 0 ? 'all exact' : `wrong ${wrong.join(',')}`} ${row.read.status} spoof ${row.verdict} ${row.ms} ms\n`,
    );
  }
  const unsupported: {
    truth: UnsupportedTruth;
    /** Told as none of ours (the decision rejects it as unsupported_document_type). */
    toldUnsupported: boolean;
    status: string;
    confident: boolean;
    approvable: boolean;
  }[] = [];
  for (let i = 0; i < Number(values.unsupported); i++) {
    if (performance.now() - started > budgetMs) break;
    const truth = await unsupportedOf(i, people);
    const front = readFileSync(join(outDir, `${truth.id}-front.jpg`));
    const d = await inspectDocument(engines, {
      documentType: truth.offeredAs,
      front,
      referenceDate: new Date(`${REFERENCE_DATE}T00:00:00Z`),
    });
    const o = d.inspection.ocr;
    const confident = o.status === 'success' && (o.confidence ?? 0) >= OCR_CONFIDENCE_THRESHOLD;
    const verdict = d.inspection.documentSpoofCheck.risk ?? 'no verdict';
    const row = {
      truth,
      toldUnsupported: o.unsupportedDocumentType !== undefined,
      status: `${o.status} ${o.confidence}`,
      confident,
      approvable: confident && verdict === 'low',
    };
    unsupported.push(row);
    process.stderr.write(
      `${truth.id} (${truth.quality}) offered as ${truth.offeredAs}: ${row.toldUnsupported ? 'none of ours' : `read as ${o.detectedDocumentType ?? 'the type offered'}`}, ${row.status}, spoof ${verdict}${row.approvable ? ' APPROVABLE' : ''}\n`,
    );
  }
  const elapsed = (performance.now() - started) / 1000;
  await terminateOcrEngine();

  const lines: string[] = [];
  lines.push(
    `Corpus: ${wide ? 'wide (src/synth/wide-identity.ts)' : 'classic'}, seed ${seed} (${use} seeds; tuning ${TUNING_SEEDS.from}–${TUNING_SEEDS.to}, validation ${VALIDATION_SEEDS.from}–${VALIDATION_SEEDS.to}), reference date ${REFERENCE_DATE}; ${rows.length} of ${plan.length} documents${unsupported.length > 0 ? ` and ${unsupported.length} cards of unsupported kinds` : ''} measured in ${elapsed.toFixed(0)} s${rows.length < plan.length ? ' (time budget reached)' : ''}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end.`,
  );
  lines.push('');
  lines.push(
    '| type | n | type detected | name | birth date | address | number | expiry | every field | OCR confident | approvable | wrong key field passed as success |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const groups: [string, Row[]][] = [
    ...types.map((t) => [t, rows.filter((r) => r.truth.documentType === t)] as [string, Row[]]),
    ...(['gothic', 'mincho'] as const).map(
      (f) => [`*${f}*`, rows.filter((r) => r.truth.typeface === f)] as [string, Row[]],
    ),
    ...(['clean', 'typical', 'poor'] as const).map(
      (q) => [`*${q}*`, rows.filter((r) => r.truth.quality === q)] as [string, Row[]],
    ),
    ['*licence holder moved since issue*', rows.filter((r) => r.truth.moved)],
    ['**all**', rows],
  ];
  for (const [label, group] of groups) {
    const n = group.length;
    const c = (f: (r: Row) => boolean) => pct(group.filter(f).length, n);
    const every = (r: Row) => FIELDS.every((f) => r.ok[f]);
    const key = (r: Row) => r.ok.name && r.ok.birthDate && r.ok.documentNumber;
    lines.push(
      `| ${label} | ${n} | ${FIELDS.map((f) => c((r) => r.ok[f])).join(' | ')} | ${c(every)} | ${c((r) => r.confident)} | ${c((r) => r.approvable)} | ${group.filter((r) => r.confident && !key(r)).length} |`,
    );
  }
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  lines.push('');
  lines.push(
    `OCR + documentSpoofCheck per document (front and back, one process, engines warm): p50 ${(percentile(times, 50) / 1000).toFixed(2)} s, p95 ${(percentile(times, 95) / 1000).toFixed(2)} s.`,
  );
  if (unsupported.length > 0) {
    lines.push('');
    lines.push('Cards mimoto does not accept, offered as a supported type (none may be approvable):');
    lines.push('');
    lines.push(
      '| kind | n | told as none of ours (rejected: unsupported_document_type) | read as the type offered, below the threshold (review) | OCR confident | approvable |',
    );
    lines.push('|---|---|---|---|---|---|');
    for (const kind of UNSUPPORTED_KINDS) {
      const group = unsupported.filter((u) => u.truth.kind === kind);
      const c = (f: (u: (typeof group)[number]) => boolean) => `${group.filter(f).length}/${group.length}`;
      lines.push(
        `| ${kind} | ${group.length} | ${c((u) => u.toldUnsupported)} | ${c((u) => !u.toldUnsupported && !u.confident)} | ${c((u) => u.confident)} | ${c((u) => u.approvable)} |`,
      );
    }
  }
  console.log(lines.join('\n'));
  if (values.misses) {
    const misses = rows
      .filter((r) => FIELDS.some((f) => !r.ok[f]) || !r.approvable)
      .map((r) => ({
        truth: r.truth,
        read: r.read,
        wrong: FIELDS.filter((f) => !r.ok[f]),
        verdict: r.verdict,
      }));
    writeFileSync(values.misses, JSON.stringify(misses, null, 1));
  }
  if (values.reads)
    writeFileSync(
      values.reads,
      `${JSON.stringify(
        rows.map((r) => ({ id: r.truth.id, read: r.read, verdict: r.verdict })),
        null,
        1,
      )}\n`,
    );
}

await main();
