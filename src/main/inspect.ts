// The checks run on image files outside a session, composed as the pipeline's runners compose them
// (src/pipeline/check-runners.ts): OCR and the document's face at once, then documentSpoofCheck on
// the OCR's facts and the portrait's apparent sex; faceMatch decided by decideFaceMatch from the two
// descriptions. Used by `mimoto inspect` (in this thread) and bench/real.bench.ts (in the pipeline's
// worker threads, so its time and memory are a worker's). A registered check beyond these is run
// through its definition's `run` when inspect has what it declares (inspectRegisteredChecks).
import sharp from 'sharp';
import {
  type DocumentSpoofInput,
  type DocumentSpoofResult,
  documentSpoofCheck,
  documentSpoofFacts,
} from '../checks/document-spoof/index.ts';
import {
  type DocumentPortraitSource,
  decideFaceMatch,
  describeDocumentFace,
  describeFace,
  type FaceMatchResult,
} from '../checks/face-match/index.ts';
import {
  CHECKS,
  type CheckDefinition,
  type CheckId,
  type CheckInputValues,
  notRunnableByDefinition,
  runByDefinition,
  type WaitedResult,
} from '../checks/index.ts';
import {
  createOcrCheck,
  DOCUMENT_TYPES,
  type DocumentGeometry,
  type DocumentType,
  type OcrCheckResult,
} from '../checks/ocr/index.ts';
import {
  type SelfieSpoofInput,
  type SelfieSpoofResult,
  selfieSpoofCheck,
} from '../checks/selfie-spoof/index.ts';
import { DEFAULT_THRESHOLDS } from '../decision/index.ts';
import type { OcrResult, SpoofCheck } from '../domain/index.ts';
import { type FaceDescription, loadFaceApi } from '../platform/ml/face-api.ts';

export { DOCUMENT_TYPES, type DocumentType };

/** Where the image work runs: this thread (the CLI) or the pipeline's worker threads (the bench). */
export interface CheckEngines {
  /** The OCR check's document finding and warps (default: this thread). */
  geometry?: DocumentGeometry;
  describeDocumentFace(
    photo: Buffer,
    documentType: DocumentType | null,
  ): Promise<{ face: FaceDescription | null; portrait: DocumentPortraitSource }>;
  describeReferenceFace(image: Buffer): Promise<{ face: FaceDescription | null; faceApiVersion: string }>;
  documentSpoof(input: DocumentSpoofInput): Promise<DocumentSpoofResult>;
  selfieSpoof(input: SelfieSpoofInput): Promise<SelfieSpoofResult>;
}

export const engineInThisThread: CheckEngines = {
  describeDocumentFace: (photo, type) =>
    describeDocumentFace(photo, type, (image) => describeFace(image, 'documentPortrait')),
  describeReferenceFace: async (image) => ({
    face: await describeFace(image, 'referenceImage'),
    faceApiVersion: (await loadFaceApi()).version,
  }),
  documentSpoof: (input) => documentSpoofCheck.run(input),
  selfieSpoof: (input) => selfieSpoofCheck.run(input),
};

/** An input file that is not a picture the checks can decode. */
export class UnreadableImageFileError extends Error {
  override name = 'UnreadableImageFileError';
}

/** Fails with one clear line when `bytes` is not an image sharp can decode. */
export async function assertReadableImage(bytes: Buffer, label: string): Promise<void> {
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) throw new Error('no image size');
  } catch {
    throw new UnreadableImageFileError(`${label} is not a readable image (JPEG, PNG or WebP expected)`);
  }
}

/** The identity fields as read, dates ISO (YYYY-MM-DD), from the OCR result and its extras. */
export interface InspectedFields {
  lastName: string | null;
  firstName: string | null;
  birthDate: string | null;
  address: string | null;
  documentNumber: string | null;
  expiryDate: string | null;
}

export interface InspectedMrz {
  /** ICAO 9303: TD1 (3×30), TD2 (2×36) or TD3 (2×44). */
  format: 'TD1' | 'TD2' | 'TD3' | 'unknown';
  lines: string[];
  /** Every check digit holds. */
  valid: boolean;
}

export interface DocumentInspection {
  /** Exactly the interface §2.6 object (GET detail's ocrResult). */
  ocr: OcrResult;
  fields: InspectedFields;
  mrz: InspectedMrz | null;
  /** Exactly the interface §2.9 object (results.documentSpoofCheck). */
  documentSpoofCheck: SpoofCheck;
}

export interface DocumentInspectionDetail {
  inspection: DocumentInspection;
  ocrExtras: OcrCheckResult['extras'];
  spoofMeasurements: DocumentSpoofResult['measurements'];
  portrait: DocumentPortraitSource;
  /** Wall time of each stage (ms): ocr and the document face at once, then the spoof check. */
  ms: { ocrAndFace: number; documentSpoof: number; total: number };
}

export function mrzFormat(lines: readonly string[]): InspectedMrz['format'] {
  const lengths = lines.map((l) => l.length);
  if (lines.length === 3 && lengths.every((n) => n === 30)) return 'TD1';
  if (lines.length === 2 && lengths.every((n) => n === 36)) return 'TD2';
  if (lines.length === 2 && lengths.every((n) => n === 44)) return 'TD3';
  return 'unknown';
}

export function inspectedFields(read: OcrCheckResult): InspectedFields {
  const p = read.result.payload ?? {};
  return {
    lastName: p.lastName ?? null,
    firstName: p.firstName ?? null,
    birthDate: p.birthDate ?? null,
    address: p.address ?? null,
    documentNumber: read.extras.documentNumber ?? null,
    expiryDate: read.extras.expiryDate ?? null,
  };
}

function inspectedMrz(read: OcrCheckResult): InspectedMrz | null {
  const mrz = read.extras.mrz;
  if (!mrz) return null;
  const lines = [...mrz.lines];
  // The format as the reader names it, when it does; else told by the lines' count and length.
  const named = (mrz as { format?: unknown }).format;
  const format = named === 'TD1' || named === 'TD2' || named === 'TD3' ? named : mrzFormat(lines);
  return { format, lines, valid: mrz.valid };
}

const ocrChecks = new Map<string, ReturnType<typeof createOcrCheck>>();
function ocrCheckFor(engines: CheckEngines, referenceDate: Date | undefined) {
  const key = `${engines === engineInThisThread ? 'here' : 'engines'}:${referenceDate?.toISOString() ?? 'now'}`;
  let check = ocrChecks.get(key);
  if (!check) {
    check = createOcrCheck({
      ...(engines.geometry ? { geometry: engines.geometry } : {}),
      ...(referenceDate ? { now: () => referenceDate } : {}),
    });
    ocrChecks.set(key, check);
  }
  return check;
}

/**
 * OCR and documentSpoofCheck on a document's front (and back) as the pipeline runs them for a
 * session whose user chose `documentType`. `referenceDate` is the day the document is judged on
 * (expiry, two-digit MRZ years; default today, as the pipeline).
 */
export async function inspectDocument(
  engines: CheckEngines,
  input: { documentType: DocumentType; front: Buffer; back?: Buffer; referenceDate?: Date },
): Promise<DocumentInspectionDetail> {
  const started = performance.now();
  const { documentType, front, back } = input;
  // As the pipeline: the ocr and faceMatch jobs run side by side; the document check reads both.
  const [read, documentFace] = await Promise.all([
    ocrCheckFor(engines, input.referenceDate).run({
      front,
      ...(back ? { back } : {}),
      expectedDocumentType: documentType,
    }),
    engines.describeDocumentFace(front, documentType),
  ]);
  const ocrDone = performance.now();
  const portraitSex = documentFace.face?.apparentSex;
  const spoof = await engines.documentSpoof({
    front,
    ...(back ? { back } : {}),
    ocr: documentSpoofFacts(read.extras, read.result),
    ...(portraitSex ? { portraitSex } : {}),
    documentType,
    referenceDate: input.referenceDate ?? new Date(),
  });
  const done = performance.now();
  return {
    inspection: {
      ocr: read.result,
      fields: inspectedFields(read),
      mrz: inspectedMrz(read),
      documentSpoofCheck: spoof.result,
    },
    ocrExtras: read.extras,
    spoofMeasurements: spoof.measurements,
    portrait: documentFace.portrait,
    ms: {
      ocrAndFace: Math.round(ocrDone - started),
      documentSpoof: Math.round(done - ocrDone),
      total: Math.round(done - started),
    },
  };
}

/**
 * faceMatch on two pictures: `a` is the document side (its printed portrait cut out first when
 * `documentType` is given, as the pipeline does; else the whole picture), `b` the live check's
 * reference. Thresholds: the service defaults unless given.
 */
export async function inspectFaces(
  engines: CheckEngines,
  input: {
    a: Buffer;
    b: Buffer;
    documentType?: DocumentType | null;
    threshold?: number;
    nearThresholdBand?: number;
  },
): Promise<FaceMatchResult> {
  const [documentSide, selfieSide] = await Promise.all([
    engines.describeDocumentFace(input.a, input.documentType ?? null),
    engines.describeReferenceFace(input.b),
  ]);
  return decideFaceMatch({
    document: documentSide.face,
    selfie: selfieSide.face,
    faceApiVersion: selfieSide.faceApiVersion,
    documentFaceSource: documentSide.portrait,
    threshold: input.threshold ?? DEFAULT_THRESHOLDS.faceSimilarityThreshold,
    nearThresholdBand: input.nearThresholdBand ?? DEFAULT_THRESHOLDS.faceNearThresholdBand,
  });
}

/** A registered check beyond those above, as inspect reports it: its result, or why it was not run. */
export type InspectedCheck = { result: Record<string, unknown> } | { notRun: string };

/** What a subcommand has for the registry's checks: inputs by their declared names, checks' results. */
export interface InspectGiven {
  /** The subcommand, as its reasons name it ("inspect document"). */
  command: string;
  inputs: Partial<CheckInputValues>;
  results: Readonly<Record<string, WaitedResult>>;
  /** The day the checks are judged on (the pipeline's clock). */
  now: Date;
}

/**
 * Registered checks whose results inspect prints as it always has: the three composed above, and
 * the two that read only what a session holds (the live check's frames, the tenant's history).
 * Every other registered check is listed under `checks`.
 */
const PRINTED_AS_BEFORE = new Set<string>([
  'ocr',
  'documentSpoofCheck',
  'faceMatch',
  'selfieSpoofCheck',
  'fraudSignalAnalysis',
  // A chip reading's files are inspected by `mimoto inspect chip` (inspect-chip.ts).
  'icChip',
] satisfies CheckId[]);

/**
 * The registered checks not composed above, each run through its definition's `run` when the
 * subcommand has every input it declares and every result it waits for (in the order they wait
 * for each other), else listed with the reason it was not; undefined when there is none, so the
 * output is then what it always was.
 */
export async function inspectRegisteredChecks(
  given: InspectGiven,
  checks: readonly CheckDefinition[] = CHECKS,
): Promise<Record<string, InspectedCheck> | undefined> {
  const listed = checks.filter((check) => !PRINTED_AS_BEFORE.has(check.id));
  if (listed.length === 0) return undefined;
  const results: Record<string, WaitedResult> = { ...given.results };
  const outcomes = new Map<string, InspectedCheck>();
  const notRun = (check: CheckDefinition): string | null => {
    if (notRunnableByDefinition(check) !== null) {
      return check.run
        ? 'runs in the inference threads: only its runner in the pipeline runs it'
        : 'has no run in its definition: only its runner in the pipeline runs it';
    }
    const missing = check.inputs.filter((name) => given.inputs[name as keyof CheckInputValues] === undefined);
    if (missing.length > 0) return `needs ${missing.join(', ')}, which ${given.command} is not given`;
    const unrun = check.waitsFor.filter(
      (other) => !(other in results) && !listed.some((c) => c.id === other),
    );
    if (unrun.length > 0) return `waits for ${unrun.join(', ')}, which ${given.command} does not run`;
    const failed = check.waitsFor.filter((other) => outcomes.has(other) && !(other in results));
    if (failed.length > 0) return `waits for ${failed.join(', ')}, which was not run`;
    return null;
  };
  let pending = listed;
  while (pending.length > 0) {
    const waiting: CheckDefinition[] = [];
    for (const check of pending) {
      const reason = notRun(check);
      if (reason !== null) {
        outcomes.set(check.id, { notRun: reason });
        continue;
      }
      if (!check.waitsFor.every((other) => other in results)) {
        waiting.push(check);
        continue;
      }
      const inputs = Object.fromEntries(
        check.inputs.map((name) => [name, given.inputs[name as keyof CheckInputValues]]),
      );
      const waited = Object.fromEntries(
        check.waitsFor.map((other) => [other, results[other] as WaitedResult]),
      );
      const output = await runByDefinition(check, {
        inputs: inputs as never,
        results: waited,
        now: given.now,
      });
      const result = output.result as Record<string, unknown>;
      results[check.id] = { result, extras: output.extras ?? {} };
      outcomes.set(check.id, { result });
    }
    // The registry refuses a cycle of waits (checkRegistryProblems): a round without progress is one.
    if (waiting.length === pending.length) {
      for (const check of waiting) {
        outcomes.set(check.id, { notRun: `waits for ${check.waitsFor.join(', ')} in a cycle` });
      }
      break;
    }
    pending = waiting;
  }
  return Object.fromEntries(listed.map((check) => [check.id, outcomes.get(check.id) as InspectedCheck]));
}
