// Spoof checks on generated corpora: APCER per attack type and
// BPCER (ISO/IEC 30107-3) at the operating point in the checks, and the time per check.
//
//   npm run bench:spoof -- --corpus /tmp/spoofcorpus2 [--corpus DIR …] [--no-selfie] [--dump]
//                          [--security-print N] [--save-summary FILE]
//
// --security-print N: also N sheets of each security print (src/synth/security-print.ts:
// guilloche, fine lines, microtext, rainbow) photographed clean and typical as bona fide
// presentations, and the same photos shown on a screen and photographed again as screen replays.
// --save-summary FILE: the documentSpoofCheck table as JSON (bench:real --spoof-summary reads it).
//
// A corpus comes from `mimoto synth --out DIR --seed 7 --count 10 --no-video [--only …]`.
// A folder without manifest.json (an interrupted synth run) is read from its sample folders: the
// document check runs, the selfie check needs the manifest's frame times and challenge.
//
// Attack presentation = a bundle whose attack targets that check; a bona fide presentation = any
// other bundle. "Detected" = risk medium or high; "no verdict" = the document check's
// insufficient_quality (a capture too poor to judge), left out of APCER and BPCER. The OCR facts
// the document check reads (expiry, check digits, MRZ) are taken from the corpus truth here, so the
// figures for expired and bad_check_digit measure this check's rule given a correct reading; the
// OCR bench measures reading.
// The document type (where the values are printed) is the corpus truth too.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { type DocumentSpoofOcrFacts, documentSpoofCheck } from '../src/checks/document-spoof/index.ts';
import { DOCUMENT_TYPES, type DocumentType } from '../src/checks/ocr/document-regions.ts';
import { selfieSpoofCheck } from '../src/checks/selfie-spoof/index.ts';
import { NO_VERDICT } from '../src/checks/spoof-cues.ts';
import type { LivenessStep } from '../src/liveness/index.ts';
import { verifyLivenessFrames } from '../src/liveness/index.ts';
import { percentileOf } from '../src/platform/math/percentile.ts';
import { drawCaptureParameters } from '../src/synth/capture-parameters.ts';
import { drawScreenReplayParameters, showOnScreen } from '../src/synth/document-attacks.ts';
import { photographDocument } from '../src/synth/photograph-document.ts';
import { Random } from '../src/synth/random.ts';
import { drawSecurityPrint, SECURITY_PATTERNS } from '../src/synth/security-print.ts';

const DOCUMENT_ATTACKS = [
  'screen_replay',
  'printed_copy',
  'portrait_swap',
  'text_edit',
  'expired',
  'bad_check_digit',
];
const FACE_ATTACKS = ['static_photo', 'warped_photo', 'replayed_frames', 'face_swap_midway', 'other_person'];
const REFERENCE_DATE = new Date('2026-04-01T00:00:00Z');

type Sample = {
  id: string;
  attack: string | null;
  documentType?: string;
  files: {
    front: string;
    back: string | null;
    frames?: { file: string; t: number; pose: { name: string } }[];
  };
  truth?: {
    expiryDate?: string;
    liveness?: { challenge: string[] };
    attackDetails?: Record<string, unknown> | null;
  };
};

function attackOf(id: string): string | null {
  if (id.includes('-genuine-')) return null;
  return id.replace(/-\d+$/, '');
}

/** The document type from the manifest, or from a genuine sample's id (no manifest). */
function documentTypeOf(sample: Sample): DocumentType | undefined {
  const type = sample.documentType ?? DOCUMENT_TYPES.find((t) => sample.id.startsWith(`${t}-`));
  return DOCUMENT_TYPES.find((t) => t === type);
}

function readCorpus(dir: string): Sample[] {
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest))
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { samples: Sample[] }).samples;
  return readdirSync(dir)
    .filter((id) => existsSync(path.join(dir, id, 'selfie.jpg')))
    .map((id) => ({
      id,
      attack: attackOf(id),
      files: {
        front: `${id}/front.jpg`,
        back: existsSync(path.join(dir, id, 'back.jpg')) ? `${id}/back.jpg` : null,
      },
    }));
}

/** The OCR facts a correct reading of the document would give (from the corpus truth). */
function ocrFactsOf(sample: Sample): DocumentSpoofOcrFacts | undefined {
  if (!sample.truth) return undefined;
  const facts: DocumentSpoofOcrFacts = {};
  if (sample.truth.expiryDate) facts.expiryDate = sample.truth.expiryDate;
  if (sample.attack === 'bad_check_digit') {
    if (sample.truth.attackDetails?.field === 'mrz')
      facts.mrz = { valid: false, invalidFields: ['documentNumber'], matchesPrintedFields: true };
    else facts.myNumberCheckDigitValid = false;
  }
  // A passport's MRZ keeps the original name, birth date and expiry: the OCR check's
  // MRZ-vs-printed comparison sees an edit of those (not of the address, which the MRZ lacks).
  const edited = sample.truth.attackDetails?.field;
  if (
    sample.attack === 'text_edit' &&
    sample.documentType === 'passport' &&
    (edited === 'name' || edited === 'birthDate' || edited === 'expiryDate')
  )
    facts.mrz = { valid: true, invalidFields: [], matchesPrintedFields: false };
  // A correct reading of what the attack left alone: the check has every fact it must see.
  if (sample.documentType === 'passport')
    facts.mrz ??= { valid: true, invalidFields: [], matchesPrintedFields: true };
  if (sample.documentType === 'my_number_card') facts.myNumberCheckDigitValid ??= true;
  // `mimoto synth` prints the licence and the My Number card in their issuers' layouts: the OCR
  // reads them so, and the document check is told so (the cues of mimoto's older synthetic layout
  // are not measured on them).
  const type = documentTypeOf(sample);
  if (type === 'drivers_license' || type === 'my_number_card') facts.layout = 'official';
  return facts;
}

/** CPU time of this process since `start` (ms); sharp's own threads count too. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

const toStep = (name: string) => (name === 'closer' ? 'move_closer' : name) as LivenessStep;

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true, default: ['/tmp/spoofcorpus2'] },
    'no-selfie': { type: 'boolean', default: false },
    dump: { type: 'boolean', default: false },
    'security-print': { type: 'string', default: '0' },
    'save-summary': { type: 'string' },
  },
});

/** `noVerdict`: the check's non-responses (status insufficient_quality), outside APCER and BPCER. */
type Tally = { total: number; detected: number; flagged: number; noVerdict: number };
const doc = new Map<string, Tally>();
const face = new Map<string, Tally>();
const docMs: number[] = [];
const docCpuMs: number[] = [];
const faceCpuMs: number[] = [];
let liveFalseRejects = 0;
const faceMs: number[] = [];
/** `flagged`: isDisplayAttack (document and selfie) — whether the right kind of attack is named. */
const count = (
  map: Map<string, Tally>,
  key: string,
  detected: boolean,
  flagged = false,
  noVerdict = false,
) => {
  const t = map.get(key) ?? { total: 0, detected: 0, flagged: 0, noVerdict: 0 };
  t.total++;
  if (detected) t.detected++;
  if (flagged) t.flagged++;
  if (noVerdict) t.noVerdict++;
  map.set(key, t);
};

for (const dir of values.corpus ?? []) {
  for (const sample of readCorpus(dir)) {
    const front = readFileSync(path.join(dir, sample.files.front));
    const back = sample.files.back ? readFileSync(path.join(dir, sample.files.back)) : undefined;
    const ocr = ocrFactsOf(sample);
    const documentType = documentTypeOf(sample);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { result, measurements } = await documentSpoofCheck.run({
      front,
      ...(back ? { back } : {}),
      ...(ocr ? { ocr } : {}),
      ...(documentType ? { documentType } : {}),
      referenceDate: REFERENCE_DATE,
    });
    docMs.push(performance.now() - started);
    docCpuMs.push(cpuMsSince(cpu));
    const docKey = sample.attack && DOCUMENT_ATTACKS.includes(sample.attack) ? sample.attack : 'bona fide';
    const noVerdict = result.status === NO_VERDICT.status;
    count(doc, docKey, !noVerdict && result.risk !== 'low', result.isDisplayAttack === true, noVerdict);
    // Per document type too where the cues differ by layout (the issuers' layouts against mimoto's).
    if ((docKey === 'text_edit' || docKey === 'bona fide') && documentType)
      count(
        doc,
        `${docKey}: ${documentType}`,
        !noVerdict && result.risk !== 'low',
        result.isDisplayAttack === true,
        noVerdict,
      );
    if (values.dump) {
      const side = (s: typeof measurements.front) =>
        `L${s.luma.topRatio.toFixed(2)} r${s.ripple.p90.toFixed(2)}/${s.ripple.rippleShare.toFixed(2)} m${Math.min(s.borders.top, s.borders.bottom, s.borders.left, s.borders.right).toFixed(2)}`;
      const t = measurements.textEdit;
      const text = t
        ? ` text w${t.weightRatio.toFixed(2)} band${t.bandTintLoss.toFixed(2)} fit${t.fit.toFixed(2)} rs${t.regularStroke.toFixed(2)}`
        : '';
      console.log(
        `${sample.id.padEnd(26)} ${String(result.risk).padEnd(6)} ${result.score?.toFixed(2)} ` +
          `front ${side(measurements.front)}${measurements.back ? ` back ${side(measurements.back)}` : ''}${text}`,
      );
    }

    if (values['no-selfie'] || !sample.files.frames || !sample.truth?.liveness) continue;
    const frames = [];
    for (const f of sample.files.frames)
      frames.push({
        image: readFileSync(path.join(dir, f.file)),
        t: Math.round(f.t * 1000),
        pose: f.pose.name,
      });
    const raw = [];
    for (const f of frames) {
      const { data, info } = await sharp(f.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      raw.push({ t: f.t, image: { data, width: info.width, height: info.height, channels: 3 as const } });
    }
    const liveness = await verifyLivenessFrames(sample.truth.liveness.challenge.map(toStep), raw);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const selfie = await selfieSpoofCheck.run({ frames, liveness });
    faceMs.push(performance.now() - t0);
    faceCpuMs.push(cpuMsSince(cpu0));
    const faceKey = sample.attack && FACE_ATTACKS.includes(sample.attack) ? sample.attack : 'bona fide';
    count(face, faceKey, selfie.result.risk !== 'low', selfie.result.isDisplayAttack === true);
    if (faceKey === 'bona fide' && !liveness.passed) {
      liveFalseRejects++;
      if (values.dump)
        console.log(`  live check failed on a bona fide capture: ${liveness.failures.join(', ')}`);
    }
    if (values.dump)
      console.log(`  selfie ${selfie.result.risk} ${selfie.result.score} ${selfie.result.details}`);
  }
}

// Security print: what a genuine document's background puts before the screen cue, and the same
// shown on a screen (the picture cues alone: no OCR facts, no document type).
for (const pattern of SECURITY_PATTERNS)
  for (let seed = 0; seed < Number(values['security-print']); seed++) {
    const flat = drawSecurityPrint(pattern, seed);
    for (const quality of ['clean', 'typical'] as const) {
      const params = drawCaptureParameters(
        new Random(`security-print:${pattern}:${seed}:${quality}`),
        quality,
        1280,
      );
      const photo = await photographDocument(flat, params);
      const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const shown = showOnScreen(
        { data, width: info.width, height: info.height },
        drawScreenReplayParameters(new Random(`security-print-screen:${pattern}:${seed}:${quality}`)),
      );
      const replay = await photographDocument(shown, params);
      for (const [key, front] of [
        ['bona fide: security print', photo],
        ['screen_replay: security print', replay],
      ] as const) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        const { result } = await documentSpoofCheck.run({ front, referenceDate: REFERENCE_DATE });
        docMs.push(performance.now() - started);
        docCpuMs.push(cpuMsSince(cpu));
        const noVerdict = result.status === NO_VERDICT.status;
        count(doc, key, !noVerdict && result.risk !== 'low', result.isDisplayAttack === true, noVerdict);
        if (values.dump)
          console.log(`${key} ${pattern}-${seed} ${quality}: ${result.risk} ${result.details}`);
      }
    }
  }

function table(title: string, map: Map<string, Tally>, ms: number[], cpuMs: number[]) {
  console.log(`\n${title}`);
  console.log('| presentations | n | no verdict | detected | APCER | BPCER | isDisplayAttack |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [key, t] of [...map].sort()) {
    // APCER and BPCER over the presentations the check gave a verdict on.
    const answered = t.total - t.noVerdict;
    const rate = (x: number) => `${((100 * x) / Math.max(1, answered)).toFixed(1)} %`;
    const head = `| ${key} | ${t.total} | ${t.noVerdict} | ${t.detected} |`;
    if (key.startsWith('bona fide')) console.log(`${head} | ${rate(t.detected)} | ${t.flagged} |`);
    else console.log(`${head} ${rate(answered - t.detected)} | | ${t.flagged} |`);
  }
  if (ms.length)
    console.log(
      `time per check: wall p50 ${percentileOf(ms, 50).toFixed(0)} ms, p95 ${percentileOf(ms, 95).toFixed(0)} ms; ` +
        `CPU p50 ${percentileOf(cpuMs, 50).toFixed(0)} ms, p95 ${percentileOf(cpuMs, 95).toFixed(0)} ms (n=${ms.length})`,
    );
}
table('documentSpoofCheck', doc, docMs, docCpuMs);
if (values['save-summary'])
  writeFileSync(
    values['save-summary'],
    `${JSON.stringify(
      {
        label: `${(values.corpus ?? []).join(', ')}${Number(values['security-print']) ? ` + security print ×${values['security-print']}` : ''}`,
        rows: [...doc].sort().map(([presentations, t]) => ({ presentations, ...t })),
      },
      null,
      2,
    )}\n`,
  );
if (!values['no-selfie']) {
  table('selfieSpoofCheck', face, faceMs, faceCpuMs);
  console.log(`bona fide captures whose server live check failed (src/liveness): ${liveFalseRejects}`);
}
