// One accuracy-bench task in a worker thread: generate a bundle if missing, then
// run every check on it the way the pipeline does (src/pipeline/check-runners.ts): the live check
// on the frames, OCR, the document spoof check on the OCR's facts, the selfie spoof check on the
// frames and the live-check outcome, and face descriptors of the document, the selfie and the
// live check's reference frame. Each result is cached on disk by (bundle hash, check key), where
// a check key is the check's id and version plus a hash of its source files, so a re-run after
// someone improves a check recomputes exactly that check (and the checks reading its result).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type DocumentSpoofInput,
  documentSpoofCheck,
  documentSpoofFacts,
} from '../../src/checks/document-spoof/index.ts';
import {
  describeDocumentFace,
  describeFace,
  type FacePicture,
  faceMatchCheck,
} from '../../src/checks/face-match/index.ts';
import { createOcrCheck, OCR_CHECK_VERSION } from '../../src/checks/ocr/ocr.check.ts';
import { selfieSpoofCheck } from '../../src/checks/selfie-spoof/index.ts';
import { type LivenessStep, verifyLivenessFrames } from '../../src/liveness/index.ts';
import { loadFaceApi } from '../../src/platform/ml/face-api.ts';
import { REFERENCE_DATE } from '../../src/synth/index.ts';
import { type CorpusSample, corpusRoot, ensureSample } from './accuracy-corpus.ts';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const referenceDate = new Date(`${REFERENCE_DATE}T00:00:00Z`);

/** Source files whose change invalidates a check's cached results (besides its declared version). */
const CHECK_SOURCES = {
  liveness: ['src/liveness', 'src/platform/math', 'src/platform/ml/human.ts'],
  // The OCR reads dates and prefectures with these (not the field comparison, which the report does).
  ocr: [
    'src/checks/ocr',
    'src/platform/image',
    'src/platform/text',
    'src/japanese/parse-japanese-date.ts',
    'src/japanese/kanji-numerals.ts',
    'src/japanese/normalize-address.ts',
    'src/japanese/normalize-japanese.ts',
    'src/japanese/kanji-variants.ts',
  ],
  // What describes the faces (not the ROC or calibration, which the report applies): the portrait
  // is cut where the OCR's outline search and layouts put it; this file composes the descriptions
  // the way the pipeline's runner does.
  face: [
    'src/checks/face-match/face-match.check.ts',
    'src/checks/face-match/document-portrait.ts',
    'src/checks/ocr/find-document.ts',
    'src/checks/ocr/document-regions.ts',
    'src/platform/image',
    'src/platform/ml/face-api.ts',
    'src/platform/ml/face-embedding.ts',
    'src/platform/ml/onnx-graph.ts',
    'models/face-embedding',
    'bench/lib/accuracy-worker.ts',
  ],
  // This file too: it chooses the check's inputs (the document type, the OCR facts).
  documentSpoofCheck: [
    'src/checks/document-spoof',
    'src/checks/spoof-cues.ts',
    'bench/lib/accuracy-worker.ts',
  ],
  selfieSpoofCheck: ['src/checks/selfie-spoof', 'src/checks/spoof-cues.ts'],
} as const;

function sourceHash(paths: readonly string[]): string {
  const hash = createHash('sha256');
  const add = (p: string) => {
    const abs = path.join(repoDir, p);
    if (statSync(abs).isDirectory()) for (const f of readdirSync(abs).sort()) add(path.join(p, f));
    else hash.update(p).update(readFileSync(abs));
  };
  for (const p of paths) add(p);
  return hash.digest('hex').slice(0, 12);
}

const faceKey = async () => `face@${faceMatchCheck.version}-${(await loadFaceApi()).version}`;
let keys: Record<keyof typeof CHECK_SOURCES, string> | undefined;
async function checkKeys() {
  if (keys) return keys;
  const h = (id: keyof typeof CHECK_SOURCES) => sourceHash(CHECK_SOURCES[id]);
  const liveness = `liveness-${h('liveness')}`;
  const ocr = `ocr@${OCR_CHECK_VERSION}-${h('ocr')}`;
  const face = `${await faceKey()}-${h('face')}`;
  keys = {
    liveness,
    ocr,
    face,
    // These read other results: their keys include those results' keys.
    documentSpoofCheck: `documentSpoofCheck@${documentSpoofCheck.version}-${h('documentSpoofCheck')}+${ocr}+${face}`,
    selfieSpoofCheck: `selfieSpoofCheck@${selfieSpoofCheck.version}-${h('selfieSpoofCheck')}+${liveness}`,
  };
  return keys;
}

async function cached<T>(dir: string, key: string, compute: () => Promise<T>): Promise<[T, boolean]> {
  const file = path.join(dir, `${key}.json`);
  try {
    return [JSON.parse(readFileSync(file, 'utf8')) as T, true];
  } catch {
    const value = await compute();
    mkdirSync(dir, { recursive: true });
    // Written then renamed: an interrupted run never leaves a half-written result behind.
    writeFileSync(`${file}.tmp`, JSON.stringify(value));
    renameSync(`${file}.tmp`, file);
    return [value, false];
  }
}

const toStep = (name: string) => (name === 'closer' ? 'move_closer' : name) as LivenessStep;
const describe = async (image: Buffer, input: FacePicture) => {
  const d = await describeFace(image, input);
  return d && { ...d, descriptor: Array.from(d.descriptor) };
};
export type FaceSideRecord = Awaited<ReturnType<typeof describe>>;

const ocrCheck = createOcrCheck({ now: () => referenceDate });

async function runBundle(seed: number, id: string) {
  const started = performance.now();
  const sample: CorpusSample = await ensureSample(seed, id);
  const generatedMs = performance.now() - started;
  const front = readFileSync(sample.files.front);
  const back = sample.files.back ? readFileSync(sample.files.back) : undefined;
  const selfie = readFileSync(sample.files.selfie);
  const frameBytes = sample.files.frames.map((f) => readFileSync(f.file));
  const bundleHash = createHash('sha256');
  for (const b of [front, back, selfie, ...frameBytes]) if (b) bundleHash.update(b);
  const dir = path.join(corpusRoot(seed), '..', 'results', bundleHash.digest('hex').slice(0, 24));
  const k = await checkKeys();
  const ms: Record<string, number> = {};
  const fresh: string[] = [];
  const timed = async <T>(name: string, key: string, compute: () => Promise<T>) => {
    const t0 = performance.now();
    const [value, hit] = await cached(dir, key, compute);
    if (!hit) {
      ms[name] = performance.now() - t0;
      fresh.push(name);
    }
    return value;
  };

  const liveness = await timed('liveness', k.liveness, async () => {
    const raw = [];
    for (const [i, bytes] of frameBytes.entries()) {
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      raw.push({
        t: Math.round(sample.files.frames[i]!.t * 1000),
        image: { data, width: info.width, height: info.height, channels: 3 as const },
      });
    }
    const v = await verifyLivenessFrames(sample.truth.liveness.challenge.map(toStep), raw);
    return {
      passed: v.passed,
      confidence: v.confidence,
      failures: [...v.failures],
      referenceIndex: v.referenceIndex,
      maxFaceDistance: v.maxFaceDistance,
      // What the mesh read on each frame: lets a report explain a failed capture without re-running it.
      frames: v.frames.map((r) => ({ pose: r.pose, yaw: r.yaw, pitch: r.pitch, widthRatio: r.widthRatio })),
    };
  });
  const ocr = await timed('ocr', k.ocr, () =>
    ocrCheck.run({ front, ...(back ? { back } : {}), expectedDocumentType: sample.documentType }),
  );
  // As the pipeline: the stored frames with their index as time, and the live check's outcome.
  const selfieSpoof = await timed('selfieSpoofCheck', k.selfieSpoofCheck, async () => {
    const { result } = await selfieSpoofCheck.run({
      frames: frameBytes.map((image, i) => ({ image, t: i })),
      liveness: { ...liveness, maxFaceDistance: null },
    });
    return result;
  });
  const reference =
    liveness.passed && liveness.referenceIndex !== null ? frameBytes[liveness.referenceIndex] : undefined;
  // Keyed by the frame compared, or none: a failed live check names a best frame but compares none.
  const faces = await timed(
    'face',
    `${k.face}-ref${reference ? liveness.referenceIndex : 'none'}`,
    async () => {
      // As the pipeline's runner: the face of the printed portrait when the card is found.
      const doc = await describeDocumentFace(
        front,
        sample.documentType as Parameters<typeof describeDocumentFace>[1],
        (image) => describeFace(image, 'documentPortrait'),
      );
      return {
        faceApiVersion: (await loadFaceApi()).version,
        document: doc.face && { ...doc.face, descriptor: Array.from(doc.face.descriptor) },
        documentFaceSource: doc.portrait,
        selfie: await describe(selfie, 'referenceImage'),
        reference: reference ? await describe(reference, 'referenceImage') : null,
      };
    },
  );
  // After the faces, as in the pipeline: the portrait's apparent sex is one of its cues.
  const documentSpoof = await timed('documentSpoofCheck', k.documentSpoofCheck, async () => {
    const x = ocr.extras;
    const { result } = await documentSpoofCheck.run({
      front,
      ...(back ? { back } : {}),
      ocr: documentSpoofFacts(x),
      ...(faces.document ? { portraitSex: faces.document.apparentSex } : {}),
      documentType: sample.documentType as DocumentSpoofInput['documentType'],
      referenceDate,
    });
    return result;
  });
  return {
    sample: {
      id: sample.id,
      person: sample.person,
      documentType: sample.documentType,
      attack: sample.attack,
      quality: sample.quality,
      truth: sample.truth,
    },
    liveness,
    ocr,
    documentSpoof,
    selfieSpoof,
    faces,
    ms,
    fresh,
    generatedMs,
  };
}
export type BundleRecord = Awaited<ReturnType<typeof runBundle>>;

/** A face fixture's descriptor, cached by the image's hash and the face key. */
async function describeFixture(file: string): Promise<number[] | null> {
  const image = readFileSync(file);
  const hash = createHash('sha256').update(image).digest('hex').slice(0, 24);
  const dir = path.join(corpusRoot(0), '..', 'results', 'fixtures', hash);
  const [d] = await cached(
    dir,
    `${(await checkKeys()).face}`,
    async () => (await describe(image, 'referenceImage'))?.descriptor ?? null,
  );
  return d;
}

export type AccuracyTask = { kind: 'bundle'; seed: number; id: string } | { kind: 'fixture'; file: string };

export default async function runAccuracyTask(task: AccuracyTask) {
  return task.kind === 'bundle' ? runBundle(task.seed, task.id) : describeFixture(task.file);
}
