// Every check on real images nobody on the project made (../shared/real, its README): Japanese
// specimen documents, specimen MRZ documents of many states, real faces, real spoof stills.
// Writes docs/accuracy-real.md.
//
//   npm run bench:real -- [--dir ../shared/real] [--out docs/accuracy-real.md] [--no-write]
//                         [--baseline bench/real-baseline.json] [--save-summary FILE] [--label TEXT]
//                         [--spoof-summary FILE (bench:spoof --save-summary: its APCER beside the genuine figures)]
//
// The checks run as the pipeline runs them (src/main/inspect.ts): OCR beside the document's face,
// then documentSpoofCheck on the OCR's facts, the face and spoof work in the pipeline's worker
// threads (src/inference/index.ts), one document at a time, so the time per document and
// the process's peak RSS are a worker's. The specimens are long expired: each document is judged
// on a day it was valid (30 days before its printed expiry), so the expiry cue (measured on the
// synthetic corpus) does not decide every verdict here.
// The report shows marks and counts only: nothing read from these images is written into the repo.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decideFaceMatch, tarAtFar } from '../src/checks/face-match/index.ts';
import { OCR_CONFIDENCE_THRESHOLD } from '../src/checks/ocr/index.ts';
import { terminateOcrEngine } from '../src/checks/ocr/ocr-engine.ts';
import { DEFAULT_THRESHOLDS } from '../src/decision/thresholds.ts';
import {
  closeInferencePool,
  describeDocumentFaceInWorker,
  describeReferenceFaceInWorker,
  documentGeometryInWorker,
  runDocumentSpoofInWorker,
  runSelfieSpoofInWorker,
  warmUpInferencePool,
} from '../src/inference/index.ts';
import { normalizeAddress, parseJapaneseDate } from '../src/japanese/index.ts';
import {
  type CheckEngines,
  type DocumentInspectionDetail,
  type DocumentType,
  inspectDocument,
} from '../src/main/inspect.ts';
import { percentileOf } from '../src/platform/math/percentile.ts';
import type { FaceDescription } from '../src/platform/ml/face-api.ts';
import { drawCaptureParameters } from '../src/synth/capture-parameters.ts';
import { photographDocument } from '../src/synth/photograph-document.ts';
import { Random } from '../src/synth/random.ts';
import { cardOf, distinctDocumentSection } from './lib/distinct-documents.ts';
import {
  type ExpiryReading,
  type GenuineImage,
  genuineFigures,
  genuineFiguresSection,
  readSpoofSummary,
} from './lib/genuine-figures.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: path.join(repoDir, '../shared/real') },
    out: { type: 'string', default: path.join(repoDir, 'docs/accuracy-real.md') },
    'no-write': { type: 'boolean', default: false },
    baseline: { type: 'string', default: path.join(repoDir, 'bench/real-baseline.json') },
    'save-summary': { type: 'string' },
    label: { type: 'string' },
    only: { type: 'string', default: 'jp,mrz,variants,pad,faces' },
    'spoof-summary': { type: 'string' },
  },
});
const dir = path.resolve(values.dir);
if (!existsSync(path.join(dir, 'README.md'))) {
  process.stderr.write(
    `bench:real: the real images are not at ${dir} (expected ../shared/real with its README.md beside the repo, or give --dir DIR). Nothing measured.\n`,
  );
  process.exit(2);
}
const parts = new Set(values.only.split(','));

// ---- small helpers ------------------------------------------------------------------------------

/** RFC 4180-ish: quoted fields with commas and doubled quotes. */
function readCsv(file: string): Record<string, string>[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h.trim(), (r[i] ?? '').trim()])));
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);
const frac = (n: number, d: number) => `${n}/${d} (${pct(n, d)})`;
const squash = (s: string | null | undefined) => (s ?? '').normalize('NFKC').replace(/\s+/g, '');
const mark = (ok: boolean | null) => (ok === null ? '–' : ok ? '✓' : '✗');
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000);
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
const log = (s: string) => process.stdout.write(`${s}\n`);

/** The pipeline's worker threads (inference-pool.ts): the bench's time and memory are a worker's. */
const engines: CheckEngines = {
  geometry: documentGeometryInWorker,
  describeDocumentFace: describeDocumentFaceInWorker,
  describeReferenceFace: describeReferenceFaceInWorker,
  documentSpoof: runDocumentSpoofInWorker,
  selfieSpoof: runSelfieSpoofInWorker,
};

const started = Date.now();
await warmUpInferencePool();

type Verdict = 'low' | 'medium' | 'high' | 'no verdict';
const verdictOf = (d: DocumentInspectionDetail): Verdict =>
  d.inspection.documentSpoofCheck.status === 'insufficient_quality'
    ? 'no verdict'
    : ((d.inspection.documentSpoofCheck.risk ?? 'no verdict') as Verdict);
/**
 * The best case for a genuine user: OCR success and a low verdict that covered the expiry (decide
 * never approves a verdict whose `notJudged` names it).
 */
const approvable = (d: DocumentInspectionDetail) =>
  d.inspection.ocr.status === 'success' &&
  verdictOf(d) === 'low' &&
  !d.spoofMeasurements.notJudged?.includes('expiryDate');
const documentMs: number[] = [];
/** CPU time of the whole process (every thread) per document: wall time on a shared machine is noisy. */
const documentCpuMs: number[] = [];

async function runDocument(type: DocumentType, file: string, referenceDate: Date) {
  const front = readFileSync(file);
  const cpu = process.cpuUsage();
  const detail = await inspectDocument(engines, { documentType: type, front, referenceDate });
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  documentMs.push(detail.ms.total);
  documentCpuMs.push(cpuMs);
  log(
    `  ${path.basename(file)}: ${Math.round(detail.ms.total)} ms wall, ${Math.round(cpuMs)} ms CPU, peak RSS ${Math.round(peakRssMb())} MB, load ${os.loadavg()[0]?.toFixed(1)}`,
  );
  return detail;
}

// ---- Japanese documents -------------------------------------------------------------------------

const TYPE_OF: Record<string, DocumentType> = {
  drivers_licence: 'drivers_license',
  drivers_license: 'drivers_license',
  mynumber_card_front: 'my_number_card',
  my_number_card: 'my_number_card',
  residence_card: 'residence_card',
};

interface JpRow {
  file: string;
  /** Which distinct card the image shows (distinct-documents.ts). */
  card: string;
  type: DocumentType;
  typeDetected: boolean;
  fields: Record<'name' | 'birthDate' | 'address' | 'number' | 'expiry', boolean | null>;
  addressNormalised: boolean | null;
  ocrStatus: string;
  ocrConfidence: number;
  verdict: Verdict;
  details: string;
  approvable: boolean;
  ms: number;
}

/** A truth cell that holds a value (not "(not printed)", "(blank)", or a note about another side). */
const legible = (s: string | undefined) => (s && !s.startsWith('(') ? s : null);

const jpRows: JpRow[] = [];
/** Every genuine document image inspected, for the photographed variants below. */
const genuineImages: { type: DocumentType; file: string; referenceDate: Date }[] = [];
/** Each genuine image's distinct document and verdict, and its printed and read expiry (genuine-figures.ts). */
const genuineVerdicts: GenuineImage[] = [];
const expiryReadings: ExpiryReading[] = [];
/** The document an image shows: a Japanese card by its holder and number as printed, an MRZ document by its file. */
const documentOf = new Map<string, string>();
if (parts.has('jp')) {
  const truth = readCsv(path.join(dir, 'jp-docs/truth.csv'));
  // Untimed: the first document loads Tesseract's models.
  const first = truth[0];
  if (first)
    await runDocument(TYPE_OF[first.document_type!]!, path.join(dir, 'jp-docs', first.file!), new Date());
  documentMs.length = 0;
  documentCpuMs.length = 0;
  for (const t of truth) {
    const type = TYPE_OF[t.document_type ?? ''];
    if (!type) {
      log(`jp-docs: ${t.file}: document type ${t.document_type} not one of ours, skipped`);
      continue;
    }
    // As printed: era dates and full-width digits, to what the OCR returns (ISO dates, ASCII digits).
    const birth = legible(t.birth_date) ? (parseJapaneseDate(t.birth_date!) ?? null) : null;
    const expiry = legible(t.expiry) ? (parseJapaneseDate(t.expiry!.replace(/\(.*?\)/g, '')) ?? null) : null;
    const number = legible(t.number) ? t.number!.normalize('NFKC').replace(/\D/g, '') : null;
    const name = legible(t.name);
    const address = legible(t.address);
    const referenceDate = expiry ? addDays(expiry, -30) : new Date();
    genuineImages.push({ type, file: path.join(dir, 'jp-docs', t.file!), referenceDate });
    const d = await runDocument(type, path.join(dir, 'jp-docs', t.file!), referenceDate);
    const f = d.inspection.fields;
    const o = d.inspection.ocr;
    const readName = f.lastName || f.firstName ? `${f.lastName ?? ''} ${f.firstName ?? ''}` : '';
    const row: JpRow = {
      file: t.file!,
      card: cardOf(t),
      type,
      typeDetected: o.detectedDocumentType === type,
      fields: {
        name: name
          ? squash(readName) === squash(name) && squash(f.lastName) === squash(name.split(/\s+/)[0])
          : null,
        birthDate: birth ? f.birthDate === birth : null,
        address: address ? squash(f.address) === squash(address) : null,
        number: number ? f.documentNumber === number : null,
        expiry: expiry ? f.expiryDate === expiry : null,
      },
      addressNormalised:
        address && f.address
          ? normalizeAddress(f.address) === normalizeAddress(address)
          : address
            ? false
            : null,
      ocrStatus: o.status ?? '?',
      ocrConfidence: o.confidence ?? 0,
      verdict: verdictOf(d),
      details: d.inspection.documentSpoofCheck.details ?? '',
      approvable: approvable(d),
      ms: d.ms.total,
    };
    jpRows.push(row);
    documentOf.set(t.file!, `${t.document_type}:${t.name}:${t.birth_date}:${t.number}`);
    genuineVerdicts.push({ document: documentOf.get(t.file!)!, kind: 'as given', verdict: row.verdict });
    expiryReadings.push({
      document: documentOf.get(t.file!)!,
      printed: expiry,
      read: f.expiryDate ?? undefined,
    });
    log(
      `jp ${t.file}: ${o.status} ${o.confidence} type ${o.detectedDocumentType ?? '—'} | name ${readName || '—'} | birth ${f.birthDate ?? '—'} | address ${f.address ?? '—'} | number ${f.documentNumber ?? '—'} | expiry ${f.expiryDate ?? '—'} | spoof ${row.verdict} (${row.details}) | ${row.ms} ms${o.reason && o.status !== 'success' ? ` | ${o.reason}` : ''}`,
    );
  }
}

// ---- MRZ documents ------------------------------------------------------------------------------

interface MrzRow {
  file: string;
  kind: string;
  passportEye: number | null;
  read: boolean;
  linesExact: boolean;
  valid: boolean;
  printedValid: boolean;
  format: string;
  verdict: Verdict;
  details: string;
  ocrStatus: string;
  approvable: boolean;
  ms: number;
}

/** YYMMDD of an MRZ's expiry, by format (ICAO 9303: TD1 line 2 at 8, TD2/TD3/MRV at 21). */
function mrzExpiry(lines: string[]): string | null {
  const yymmdd = lines.length === 3 ? lines[1]?.slice(8, 14) : lines[1]?.slice(21, 27);
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  return `${yy < 60 ? 2000 + yy : 1900 + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

const mrzRows: MrzRow[] = [];
if (parts.has('mrz')) {
  const truth = readCsv(path.join(dir, 'mrz/truth.csv'));
  // Untimed when no Japanese document ran first: the first document loads Tesseract's models.
  if (documentMs.length === 0 && truth[0]) {
    await runDocument('passport', path.join(dir, 'mrz', truth[0].file!), new Date());
    documentMs.length = 0;
    documentCpuMs.length = 0;
  }
  for (const t of truth) {
    const lines = [t.mrz_line1, t.mrz_line2, t.mrz_line3].filter((l): l is string => !!l);
    const expiry = mrzExpiry(lines);
    const referenceDate = expiry ? addDays(expiry, -30) : new Date();
    genuineImages.push({ type: 'passport', file: path.join(dir, 'mrz', t.file!), referenceDate });
    const d = await runDocument('passport', path.join(dir, 'mrz', t.file!), referenceDate);
    const m = d.inspection.mrz;
    const score = /^(\d+)_/.exec(t.file!)?.[1];
    const row: MrzRow = {
      file: t.file!,
      kind: t.document_type ?? '',
      passportEye: score === undefined ? null : Number(score),
      read: m !== null,
      linesExact: m !== null && m.lines.length === lines.length && m.lines.every((l, i) => l === lines[i]),
      valid: m?.valid === true,
      printedValid: t.check_digits === 'valid',
      format: m?.format ?? '—',
      verdict: verdictOf(d),
      details: d.inspection.documentSpoofCheck.details ?? '',
      ocrStatus: `${d.inspection.ocr.status}${d.inspection.ocr.status !== 'success' ? ` (${d.inspection.ocr.reason})` : ''}`,
      approvable: approvable(d),
      ms: d.ms.total,
    };
    mrzRows.push(row);
    documentOf.set(t.file!, `mrz:${t.file}`);
    genuineVerdicts.push({ document: `mrz:${t.file}`, kind: 'as given', verdict: row.verdict });
    expiryReadings.push({
      document: `mrz:${t.file}`,
      printed: expiry,
      read: d.inspection.fields.expiryDate ?? undefined,
    });
    log(
      `mrz ${t.file}: ${row.read ? `${row.format} ${m?.lines.join(' / ')}` : 'no MRZ'} | exact ${row.linesExact} valid ${row.valid} | ocr ${row.ocrStatus} | spoof ${row.verdict} (${row.details}) | ${row.ms} ms`,
    );
  }
}

// ---- genuine documents photographed as users do -------------------------------------------------
// Each genuine image above turned as a phone may store it (90°, 180°, 270°), and photographed on a
// table by the synthetic camera of `mimoto synth` (typical quality: perspective up to 14°, uneven
// light, glare, blur, noise, JPEG; a fixed draw per image), landscape and turned 90° (a portrait
// phone photo). Made at run time, never written. documentSpoofCheck verdicts only (the times and
// the field figures above are the images as given).

const VARIANTS = [
  'turned 90°',
  'turned 180°',
  'turned 270°',
  'on a table',
  'on a table, turned 90°',
] as const;
async function variantOf(kind: (typeof VARIANTS)[number], file: string): Promise<Buffer> {
  const image = readFileSync(file);
  const turn = /turned (\d+)°/.exec(kind);
  if (!kind.startsWith('on a table'))
    return sharp(image).rotate(Number(turn?.[1])).jpeg({ quality: 92 }).toBuffer();
  const params = drawCaptureParameters(new Random(`bench-real:${path.basename(file)}`), 'typical', 1280);
  // Brought to the size the card takes in the photo first, as a camera's optics do: the synthetic
  // camera samples its flat input without a prefilter, which aliases a large scan's fine print.
  const { data, info } = await sharp(image)
    .rotate()
    .resize({ width: Math.round(params.documentWidth * params.width), withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const photo = await photographDocument({ data, width: info.width, height: info.height }, params);
  return turn ? sharp(photo).rotate(Number(turn[1])).jpeg({ quality: 90 }).toBuffer() : photo;
}
const variantRows: { file: string; kind: string; verdict: Verdict; details: string }[] = [];
if (parts.has('variants'))
  for (const g of genuineImages)
    for (const kind of VARIANTS) {
      const front = await variantOf(kind, g.file);
      const d = await inspectDocument(engines, {
        documentType: g.type,
        front,
        referenceDate: g.referenceDate,
      });
      const row = {
        file: path.basename(g.file),
        kind,
        verdict: verdictOf(d),
        details: d.inspection.documentSpoofCheck.details ?? '',
      };
      variantRows.push(row);
      genuineVerdicts.push({ document: documentOf.get(row.file) ?? row.file, kind, verdict: row.verdict });
      log(`variant ${row.file} ${kind}: spoof ${row.verdict} (${row.details})`);
    }
const documentPeakRss = peakRssMb();
const genuine4 = genuineFigures(genuineVerdicts, expiryReadings, new Date());

// ---- selfie spoof on real stills ----------------------------------------------------------------

interface PadRow {
  file: string;
  label: string;
  risk: string;
  details: string;
}
const padRows: PadRow[] = [];
if (parts.has('pad')) {
  for (const t of readCsv(path.join(dir, 'pad/labels.csv'))) {
    // A still is one frame of a live check that passed: the spoof check's own cues on the picture
    // (screen peaks, Human's nets); the live check's pose answers, which stop most replays, are not
    // part of this measurement.
    const { result } = await engines.selfieSpoof({
      frames: [{ image: readFileSync(path.join(dir, 'pad', t.file!)), t: 0 }],
      liveness: { passed: true, confidence: 1, failures: [], maxFaceDistance: null },
    });
    padRows.push({ file: t.file!, label: t.label!, risk: result.risk ?? '?', details: result.details ?? '' });
    log(`pad ${t.file} (${t.label}): ${result.risk} ${result.score} (${result.details})`);
  }
}

// ---- faces --------------------------------------------------------------------------------------

interface FacePair {
  a: string;
  b: string;
  genuine: boolean;
  similarity: number;
}
const pairs: FacePair[] = [];
let facesTotal = 0;
const noFace: string[] = [];
const described = new Map<string, FaceDescription>();
let faceApiVersion = '';
if (parts.has('faces')) {
  const labels = readCsv(path.join(dir, 'faces/labels.csv'));
  facesTotal = labels.length;
  for (const t of labels) {
    const r = await engines.describeReferenceFace(readFileSync(path.join(dir, 'faces', t.file!)));
    faceApiVersion = r.faceApiVersion;
    if (r.face) described.set(t.file!, r.face);
    else noFace.push(t.file!);
  }
  const identity = new Map(labels.map((t) => [t.file!, t.identity!]));
  const files = [...described.keys()].sort();
  for (let i = 0; i < files.length; i++)
    for (let j = i + 1; j < files.length; j++) {
      const a = files[i] as string;
      const b = files[j] as string;
      const decided = decideFaceMatch({
        document: described.get(a)!,
        selfie: described.get(b)!,
        faceApiVersion,
      });
      pairs.push({ a, b, genuine: identity.get(a) === identity.get(b), similarity: decided.similarity });
    }
}
for (const p of [...pairs]
  .sort((x, y) => x.similarity - y.similarity)
  .filter((p) => p.genuine)
  .slice(0, 8))
  log(`faces: low genuine pair ${p.similarity.toFixed(3)} ${p.a} ${p.b}`);
for (const p of [...pairs]
  .sort((x, y) => y.similarity - x.similarity)
  .filter((p) => !p.genuine)
  .slice(0, 12))
  log(`faces: high impostor pair ${p.similarity.toFixed(3)} ${p.a} ${p.b}`);
const genuine = pairs.filter((p) => p.genuine).map((p) => p.similarity);
const impostor = pairs.filter((p) => !p.genuine).map((p) => p.similarity);

/** faceMatch's outcome for every pair at a threshold and band (decideFaceMatch's rule). */
function atOperatingPoint(threshold: number, band: number) {
  const count = (xs: number[]) => {
    let approved = 0;
    let review = 0;
    let same = 0;
    for (const s of xs) {
      if (Math.abs(s - threshold) < band) review++;
      else if (s >= threshold) approved++;
      if (s >= threshold) same++;
    }
    return { approved, review, rejected: xs.length - approved - review, same, n: xs.length };
  };
  return { threshold, band, genuine: count(genuine), impostor: count(impostor) };
}

// ---- summary ------------------------------------------------------------------------------------

const count = <T>(xs: T[], f: (x: T) => boolean) => xs.filter(f).length;
const fieldScore = (k: keyof JpRow['fields']) => {
  const xs = jpRows.map((r) => r.fields[k]).filter((v): v is boolean => v !== null);
  return { ok: count(xs, (v) => v), n: xs.length };
};
const verdicts = (xs: { verdict: Verdict }[]) =>
  Object.fromEntries(
    (['low', 'medium', 'high', 'no verdict'] as const).map((v) => [v, count(xs, (x) => x.verdict === v)]),
  ) as Record<Verdict, number>;
const d = DEFAULT_THRESHOLDS;
const summary = {
  label: values.label ?? 'this run',
  jp: {
    images: jpRows.length,
    typeDetected: { ok: count(jpRows, (r) => r.typeDetected), n: jpRows.length },
    name: fieldScore('name'),
    birthDate: fieldScore('birthDate'),
    address: fieldScore('address'),
    number: fieldScore('number'),
    expiry: fieldScore('expiry'),
    ocrConfident: { ok: count(jpRows, (r) => r.ocrStatus === 'success'), n: jpRows.length },
    approvable: { ok: count(jpRows, (r) => r.approvable), n: jpRows.length },
    spoof: verdicts(jpRows),
  },
  mrz: {
    images: mrzRows.length,
    read: count(mrzRows, (r) => r.read),
    linesExact: count(mrzRows, (r) => r.linesExact),
    valid: count(mrzRows, (r) => r.valid),
    // Check digits judged right: valid, or reported invalid on a document printed with a wrong one.
    exactAndValid: count(mrzRows, (r) => r.linesExact && r.read && r.valid === r.printedValid),
    passportEye100: count(mrzRows, (r) => r.passportEye === 100),
    approvable: count(mrzRows, (r) => r.approvable),
    spoof: verdicts(mrzRows),
  },
  variants: { images: variantRows.length, spoof: verdicts(variantRows) },
  genuine: genuine4,
  pad: {
    real: padRows.filter((r) => r.label === 'real').length,
    realFlagged: count(padRows, (r) => r.label === 'real' && r.risk !== 'low'),
    attacks: padRows.filter((r) => r.label !== 'real').length,
    attacksPassed: count(padRows, (r) => r.label !== 'real' && r.risk === 'low'),
  },
  faces: {
    photos: facesTotal,
    noFace: noFace.length,
    genuinePairs: genuine.length,
    impostorPairs: impostor.length,
    tarAtFar1:
      genuine.length && impostor.length
        ? tarAtFar(
            genuine.map((s) => -s),
            impostor.map((s) => -s),
            0.01,
          ).tar
        : null,
    tarAtFar01:
      genuine.length && impostor.length
        ? tarAtFar(
            genuine.map((s) => -s),
            impostor.map((s) => -s),
            0.001,
          ).tar
        : null,
    hardestGenuine: genuine.length ? Math.min(...genuine) : null,
    closestImpostor: impostor.length ? Math.max(...impostor) : null,
    atDefault: atOperatingPoint(d.faceSimilarityThreshold, d.faceNearThresholdBand),
  },
  time: {
    documents: documentMs.length,
    p50Ms: Math.round(percentileOf(documentMs, 50)),
    p95Ms: Math.round(percentileOf(documentMs, 95)),
    cpuP50Ms: Math.round(percentileOf(documentCpuMs, 50)),
    cpuP95Ms: Math.round(percentileOf(documentCpuMs, 95)),
    loadAverage: Number(os.loadavg()[0]?.toFixed(1)),
  },
  peakRssMb: Math.round(documentPeakRss),
};
log(JSON.stringify(summary));
if (values['save-summary']) writeFileSync(values['save-summary'], `${JSON.stringify(summary, null, 2)}\n`);

await closeInferencePool();
await terminateOcrEngine();

// ---- report -------------------------------------------------------------------------------------

type Summary = typeof summary;
const baseline: Summary | null = existsSync(values.baseline)
  ? (JSON.parse(readFileSync(values.baseline, 'utf8')) as Summary)
  : null;
const okN = (x: { ok: number; n: number }) => frac(x.ok, x.n);
const both = (now: string, before: (b: Summary) => string) =>
  baseline ? `| ${now} | ${before(baseline)} |` : `| ${now} |`;
const verdictText = (v: Record<Verdict, number>) =>
  `low ${v.low}, medium ${v.medium}, high ${v.high}, no verdict ${v['no verdict']}`;
const s = summary;
const rows: [string, (x: Summary) => string][] = [
  ['Japanese documents: type detected', (x) => okN(x.jp.typeDetected)],
  ['name exact', (x) => okN(x.jp.name)],
  ['birth date exact', (x) => okN(x.jp.birthDate)],
  ['address exact', (x) => okN(x.jp.address)],
  ['document number exact', (x) => okN(x.jp.number)],
  ['expiry date exact', (x) => okN(x.jp.expiry)],
  [`OCR confident (status success, confidence ≥ ${OCR_CONFIDENCE_THRESHOLD})`, (x) => okN(x.jp.ocrConfident)],
  ['**approvable** (OCR confident and documentSpoofCheck low)', (x) => `**${okN(x.jp.approvable)}**`],
  ['documentSpoofCheck on the genuine Japanese documents', (x) => verdictText(x.jp.spoof)],
  [
    'MRZ: every line exact and check digits valid (or invalid where printed so)',
    (x) => frac(x.mrz.exactAndValid, x.mrz.images),
  ],
  ['MRZ read at all', (x) => frac(x.mrz.read, x.mrz.images)],
  ['PassportEye: score 100 (from the file names)', (x) => frac(x.mrz.passportEye100, x.mrz.images)],
  ['documentSpoofCheck on the genuine MRZ documents', (x) => verdictText(x.mrz.spoof)],
  [
    'MRZ documents approvable (OCR confident and documentSpoofCheck low)',
    (x) => frac(x.mrz.approvable, x.mrz.images),
  ],
  [
    'documentSpoofCheck on the genuine documents turned and photographed on a table',
    (x) => (x.variants ? verdictText(x.variants.spoof) : '–'),
  ],
  ['selfieSpoofCheck: real stills flagged (BPCER)', (x) => frac(x.pad.realFlagged, x.pad.real)],
  ['selfieSpoofCheck: attack stills passed as low (APCER)', (x) => frac(x.pad.attacksPassed, x.pad.attacks)],
  ['faces: TAR at FAR 1 %', (x) => (x.faces.tarAtFar1 === null ? '–' : pct(x.faces.tarAtFar1, 1))],
  ['faces: TAR at FAR 0.1 %', (x) => (x.faces.tarAtFar01 === null ? '–' : pct(x.faces.tarAtFar01, 1))],
  [
    'faces at the default: threshold, band',
    (x) => `${x.faces.atDefault.threshold}, ±${x.faces.atDefault.band}`,
  ],
  [
    'faces at the default: genuine pairs approved / review / rejected',
    (x) =>
      `${x.faces.atDefault.genuine.approved} / ${x.faces.atDefault.genuine.review} / ${x.faces.atDefault.genuine.rejected} of ${x.faces.atDefault.genuine.n}`,
  ],
  [
    'faces at the default: impostor pairs approved / review / rejected',
    (x) =>
      `${x.faces.atDefault.impostor.approved} / ${x.faces.atDefault.impostor.review} / ${x.faces.atDefault.impostor.rejected} of ${x.faces.atDefault.impostor.n}`,
  ],
  [
    'faces at the default: TAR (isSamePerson) / FAR (isSamePerson)',
    (x) =>
      `${pct(x.faces.atDefault.genuine.same, x.faces.atDefault.genuine.n)} / ${pct(x.faces.atDefault.impostor.same, x.faces.atDefault.impostor.n)}`,
  ],
  [
    'OCR + document check per document: p50 / p95',
    (x) => `${(x.time.p50Ms / 1000).toFixed(2)} s / ${(x.time.p95Ms / 1000).toFixed(2)} s`,
  ],
  [
    'CPU per document (all threads): p50 / p95',
    (x) =>
      x.time.cpuP50Ms === undefined
        ? '–'
        : `${(x.time.cpuP50Ms / 1000).toFixed(2)} s / ${((x.time.cpuP95Ms ?? 0) / 1000).toFixed(2)} s`,
  ],
  [
    'load average (1 min) at the end of the documents',
    (x) => (x.time.loadAverage === undefined ? '–' : String(x.time.loadAverage)),
  ],
  ['worker-like peak RSS (VmHWM)', (x) => `${x.peakRssMb} MB`],
];

const jpTable = jpRows.map(
  (r) =>
    `| ${r.file} | ${r.type} | ${mark(r.typeDetected)} | ${mark(r.fields.name)} | ${mark(r.fields.birthDate)} | ${mark(r.fields.address)}${r.fields.address === false && r.addressNormalised ? ' (same after normalising)' : ''} | ${mark(r.fields.number)} | ${mark(r.fields.expiry)} | ${r.ocrStatus} ${r.ocrConfidence} | ${r.verdict} | ${mark(r.approvable)} | ${(r.ms / 1000).toFixed(2)} s |`,
);
const mrzTable = mrzRows.map(
  (r) =>
    `| ${r.file} | ${r.kind} | ${r.passportEye ?? '–'} | ${r.format} | ${mark(r.linesExact)} | ${r.read ? mark(r.valid) : '–'}${r.printedValid ? '' : ' (invalid as printed)'} | ${r.ocrStatus} | ${r.verdict} | ${mark(r.approvable)} | ${(r.ms / 1000).toFixed(2)} s |`,
);
const candidates = [
  [0.5, 0.05],
  [0.58, 0.14],
  [0.61, 0.11],
  [0.55, 0.05],
  [0.6, 0.05],
  [0.6, 0.1],
  [0.65, 0.05],
  [0.65, 0.1],
  [0.7, 0.1],
]
  .concat([[d.faceSimilarityThreshold, d.faceNearThresholdBand]])
  .filter((c, i, all) => all.findIndex((o) => o[0] === c[0] && o[1] === c[1]) === i)
  .map(([t, b]) => atOperatingPoint(t as number, b as number))
  .map(
    (o) =>
      `| ${o.threshold} ± ${o.band}${o.threshold === d.faceSimilarityThreshold && o.band === d.faceNearThresholdBand ? ' (default)' : ''} | ${o.genuine.approved} / ${o.genuine.review} / ${o.genuine.rejected} | ${pct(o.genuine.approved + o.genuine.review, o.genuine.n)} | ${o.impostor.approved} / ${o.impostor.review} / ${o.impostor.rejected} |`,
  );
const topImpostors = [...impostor].sort((a, b) => b - a).slice(0, 5);
const lowGenuine = [...genuine].sort((a, b) => a - b).slice(0, 5);

const report = `# Accuracy on real images

Generated by \`npm run bench:real\` (bench/real.bench.ts) on \`../shared/real\` (its README: specimen
documents and photos of real people from public repositories; none made by this project, none
copied into this repository). ${new Date().toISOString().slice(0, 10)}, ${((Date.now() - started) / 60000).toFixed(1)} min.
These images are the tuning set; a held-out set of the same kinds judges the work. Each figure counts
images (or pairs), so one image is ${jpRows.length ? pct(1, jpRows.length) : '–'} of the Japanese documents.

How the checks run: as the pipeline runs them for a session (src/main/inspect.ts, the same check
functions as src/pipeline/check-runners.ts): the OCR check with the document type the user would
choose, the document's face beside it, then documentSpoofCheck on the OCR's facts; the face and
spoof work in the pipeline's worker threads. Each document is judged on a day it was valid (30 days
before its printed expiry: the specimens are long expired, and the expiry cue is measured on the
synthetic corpus). A passport, ID card or visa of another state is inspected as \`passport\`.

## Summary

${baseline ? `| measure | ${s.label} | ${baseline.label} |\n|---|---|---|` : `| measure | ${s.label} |\n|---|---|`}
${rows.map(([name, f]) => `| ${name} ${both(f(s), f)}`).join('\n')}

Approvable: the best case for a genuine user, OCR \`success\` and documentSpoofCheck \`low\` (the
decision also needs the face and the live check). A document check \`high\` rejects, \`medium\` or no
verdict sends to review.

## Genuine documents: high, medium, no verdict, expired but valid

Every genuine image as given and its photographed variants below; a distinct document counts
where any of its images does. Expired but valid: documents whose printed expiry is before the day
of the run (the specimens are long expired), whose reading places the expiry after it or reads none.

${genuineFiguresSection(genuine4, readSpoofSummary(values['spoof-summary']))}
## Japanese documents (\`jp-docs/\`)

Truth: \`truth.csv\`, as printed; era dates and full-width digits are converted to what the OCR
result gives (ISO dates, ASCII digits). Name: last and first name both exact; address: exact after
NFKC and without spaces; number: the licence's 12 digits (the My Number card front prints none).
– = not printed or not legible on that image.

| image | type | type detected | name | birth date | address | number | expiry | OCR | document check | approvable | time |
|---|---|---|---|---|---|---|---|---|---|---|---|
${jpTable.join('\n')}

${distinctDocumentSection(
  jpRows.map((r) => ({ ...r, ocrConfident: r.ocrStatus === 'success' })),
  `every image of \`jp-docs/\` (its README: the tuning set); a held-out set of other cards judges the reading`,
)}

## MRZ documents (\`mrz/\`)

Exact = every line as in \`truth.csv\`; valid = every check digit holds on what was read (– = no MRZ
read). One document is printed with an invalid check digit: the right answer there is "invalid".
PassportEye = the valid score (0–100) PassportEye gets on that image (the number the file name
starts with). Inspected as \`passport\`.

| image | kind | PassportEye | format read | lines exact | check digits valid | OCR | document check | approvable | time |
|---|---|---|---|---|---|---|---|---|---|
${mrzTable.join('\n')}

## Genuine documents photographed as users do

Every genuine image above, turned 90°, 180° and 270° (as a phone may store it) and photographed on
a table by the synthetic camera of \`mimoto synth\` (typical quality: perspective, uneven light,
glare, blur, noise, JPEG; a fixed draw per image), landscape and turned 90°; made at run time.
documentSpoofCheck verdicts (a card held in a hand is not simulated).

| variant | low | medium | high | no verdict |
|---|---|---|---|---|
${VARIANTS.map((kind) => {
  const v = verdicts(variantRows.filter((r) => r.kind === kind));
  return `| ${kind} | ${v.low} | ${v.medium} | ${v.high} | ${v['no verdict']} |`;
}).join('\n')}
${variantRows
  .filter((r) => r.verdict === 'medium' || r.verdict === 'high')
  .map((r) => `\n- ${r.file}, ${r.kind}: ${r.verdict} (${r.details})`)
  .join('')}

## Selfie spoof check on real stills (\`pad/\`)

Each still as the one frame of a live check that passed: the check's own picture cues (screen
peaks, Human's antispoof and liveness nets). The live check's random poses, which a still cannot
answer, are not part of this figure.

| image | label | risk |
|---|---|---|
${padRows.map((r) => `| ${r.file} | ${r.label} | ${r.risk} |`).join('\n')}

## Face match on real photos (\`faces/\`)

${facesTotal} colour photos, ${described.size} with a face found${noFace.length ? ` (none found on ${noFace.join(', ')})` : ''};
every pair compared as faceMatch compares a document portrait with a selfie (the same embedding,
calibration and rule, decideFaceMatch): ${genuine.length} genuine pairs, ${impostor.length} impostor pairs.
Hardest genuine pairs: ${lowGenuine.map((x) => x.toFixed(3)).join(', ')}; closest impostors:
${topImpostors.map((x) => x.toFixed(3)).join(', ')}.

The service default (\`FACE_MATCH_DEFAULTS\`, src/checks/face-match/face-match.check.ts) is set from
these pairs: its approve line (threshold + band, ${Number((d.faceSimilarityThreshold + d.faceNearThresholdBand).toFixed(3))}) lies
${impostor.length ? (d.faceSimilarityThreshold + d.faceNearThresholdBand - Math.max(...impostor)).toFixed(3) : '–'} above the closest impostor pair, its reject line (threshold − band,
${Number((d.faceSimilarityThreshold - d.faceNearThresholdBand).toFixed(3))}) ${genuine.length ? (Math.min(...genuine) - (d.faceSimilarityThreshold - d.faceNearThresholdBand)).toFixed(3) : '–'} below the hardest genuine pair. Tuned on these
photos: the held-out set of the same kind tells whether the margins hold.

Outcome per operating point (similarity ≥ threshold + band approved, within the band review,
below rejected; "accepted" = approved or review, i.e. not rejected):

| threshold ± band | genuine approved / review / rejected | genuine accepted | impostor approved / review / rejected |
|---|---|---|---|
${candidates.join('\n')}

## Time and memory

OCR + documentSpoofCheck (with the document's face beside the OCR) per document, ${s.time.documents}
documents one at a time after one untimed warm-up document: p50 ${(s.time.p50Ms / 1000).toFixed(2)} s,
p95 ${(s.time.p95Ms / 1000).toFixed(2)} s wall; CPU of the whole process (every thread) p50
${((s.time.cpuP50Ms ?? 0) / 1000).toFixed(2)} s, p95 ${((s.time.cpuP95Ms ?? 0) / 1000).toFixed(2)} s. Wall time depends on what else the machine runs
(load average ${s.time.loadAverage} at the end of the documents; this machine has ${os.availableParallelism()} cores). Peak RSS of the process (VmHWM) after the documents, with
the pipeline's worker threads and Tesseract's loaded as in a worker: ${s.peakRssMb} MB.
`;

if (!values['no-write']) {
  writeFileSync(values.out, report);
  log(`wrote ${path.relative(process.cwd(), values.out)}`);
} else log(report);
