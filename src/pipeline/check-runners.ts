// One runner per check id: loads the check's inputs, runs the check, returns what is stored.
// Every check id has a real implementation wired here. `unavailable(id)` remains for a check that
// cannot run in a build (a clearly labelled result, never a faked pass: the decision sends such a
// verification to review, src/decision/decide.ts).

import { documentSpoofCheck, documentSpoofFacts } from '../checks/document-spoof/index.ts';
import { decideFaceMatch, type FaceMatchResult, faceMatchCheck } from '../checks/face-match/index.ts';
import { analyzeFraudSignals, FRAUD_SIGNALS_VERSION } from '../checks/fraud-signals/index.ts';
import type { CheckId } from '../checks/index.ts';
import { PROVIDER } from '../checks/index.ts';
import {
  createOcrCheck,
  DOCUMENT_TYPES,
  type DocumentType,
  OCR_CHECK_VERSION,
  type OcrExtras,
} from '../checks/ocr/index.ts';
import { selfieSpoofCheck } from '../checks/selfie-spoof/index.ts';
import type { DecisionThresholds } from '../decision/index.ts';
import type { OcrResult } from '../domain/index.ts';
import {
  describeDocumentFaceInWorker,
  describeReferenceFaceInWorker,
  documentGeometryInWorker,
  runDocumentSpoofInWorker,
  runSelfieSpoofInWorker,
} from '../inference/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { encryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';
import {
  loadDocumentImages,
  loadReferenceImage,
  MissingInputError,
  readUserInput,
  sha256Of,
} from './check-inputs.ts';
import { gatherFraudFacts } from './gather-fraud-facts.ts';
import { findLastChallenge, saveFaceDescriptor } from './pipeline-repository.ts';
import { descriptorContext, type ResultEnvelope, readStoredResult } from './stored-results.ts';

export interface CheckRun {
  status: 'success' | 'unavailable';
  envelope: ResultEnvelope;
  provider: string;
  model: string;
  version: string;
  inputHashes: Record<string, string>;
}

export interface RunContext {
  platform: Platform;
  session: SessionRow;
  thresholds: DecisionThresholds;
}

/**
 * Thrown by a check whose inputs (other checks' results) are not stored: the job ends quietly. runCheckJob
 * already waits for CHECK_DEPENDENCIES to be current; this guards a runner reading one that is missing.
 */
export class DependencyNotReady extends Error {
  override name = 'DependencyNotReady';
}

/** Checks that read other checks' results run once those count for the session's generation (run-check-job.ts). */
export const CHECK_DEPENDENCIES: Partial<Record<CheckId, readonly CheckId[]>> = {
  // faceMatch: the portrait's apparent sex, against the printed one.
  documentSpoofCheck: ['ocr', 'faceMatch'],
  fraudSignalAnalysis: ['ocr', 'faceMatch'],
};

/** The OCR check with its geometry in the worker threads; Tesseract reads in threads of its own. */
const pipelineOcrCheck = createOcrCheck({ geometry: documentGeometryInWorker });

async function runOcr({ platform, session }: RunContext): Promise<CheckRun> {
  const { front, back } = await loadDocumentImages(platform, session);
  if (!session.document_type) throw new MissingInputError('no document type was chosen');
  const { result, extras } = await pipelineOcrCheck.run({
    front,
    ...(back ? { back } : {}),
    expectedDocumentType: session.document_type,
  });
  return {
    status: 'success',
    envelope: { result, extras: { ...extras } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? 'tesseract.js',
    version: OCR_CHECK_VERSION,
    inputHashes: { front: sha256Of(front), ...(back ? { back: sha256Of(back) } : {}) },
  };
}

async function runFaceMatch({ platform, session, thresholds }: RunContext): Promise<CheckRun> {
  const { front } = await loadDocumentImages(platform, session);
  const reference = await loadReferenceImage(platform, session);
  if (!reference) {
    // Every live-check attempt failed, so there is no selfie to compare: an outcome, not a fault
    // to retry (the decision rejects with liveness_failed).
    return {
      status: 'success',
      envelope: {
        result: {
          similarity: 0,
          isSamePerson: false,
          status: 'no_reference_image',
          reason: 'liveness_failed',
        },
        extras: {},
      },
      provider: PROVIDER,
      model: 'none',
      version: faceMatchCheck.version,
      inputHashes: { documentPortrait: sha256Of(front) },
    };
  }
  // Both pictures at once, in two worker threads (inference/inference-pool.ts); the document's face from
  // its printed portrait when the card is found (document-portrait.ts).
  const [documentSide, selfieSide] = await Promise.all([
    describeDocumentFaceInWorker(front, chosenDocumentType(session)),
    describeReferenceFaceInWorker(reference),
  ]);
  const document = documentSide.face;
  const selfie = selfieSide.face;
  const faceApiVersion = selfieSide.faceApiVersion;
  const decided = decideFaceMatch({
    document,
    selfie,
    faceApiVersion,
    documentFaceSource: documentSide.portrait,
    threshold: thresholds.faceSimilarityThreshold,
    nearThresholdBand: thresholds.faceNearThresholdBand,
  });
  const now = platform.now();
  for (const [source, d] of [
    ['document', document],
    ['selfie', selfie],
  ] as const) {
    if (!d) continue;
    await saveFaceDescriptor(platform.database.db, {
      sessionId: session.id,
      tenantId: session.tenant_id,
      source,
      descriptorEnc: encryptJson(
        platform.keyring,
        Array.from(d.descriptor),
        descriptorContext(session.id, source),
      ),
      now,
    });
  }
  const { similarity, isSamePerson, status, reason, ...extras } = decided;
  return {
    status: 'success',
    envelope: { result: { similarity, isSamePerson, status, reason }, extras },
    provider: decided.provider,
    model: decided.model,
    version: decided.version,
    inputHashes: { documentPortrait: sha256Of(front), referenceImage: sha256Of(reference) },
  };
}

/** The document type the user chose, which says where the card's portrait and values are printed. */
function chosenDocumentType(session: RunContext['session']): DocumentType | null {
  return (DOCUMENT_TYPES as readonly string[]).includes(session.document_type ?? '')
    ? (session.document_type as DocumentType)
    : null;
}

async function runDocumentSpoof({ platform, session }: RunContext): Promise<CheckRun> {
  const ocr = await readStoredResult<OcrResult, OcrExtras>(platform, session.id, 'ocr');
  if (!ocr) throw new DependencyNotReady('documentSpoofCheck waits for ocr (expiry, check digits, MRZ)');
  const face = await readStoredResult<unknown, Partial<FaceMatchResult>>(platform, session.id, 'faceMatch');
  if (!face) throw new DependencyNotReady("documentSpoofCheck waits for faceMatch (the portrait's look)");
  const portraitSex = face.envelope.extras?.document?.apparentSex;
  const { front, back, tilted } = await loadDocumentImages(platform, session);
  const extras = ocr.envelope.extras;
  const documentType = chosenDocumentType(session);
  const { result, measurements } = await runDocumentSpoofInWorker({
    front,
    ...(back ? { back } : {}),
    ...(tilted ? { tilted } : {}),
    ...(extras ? { ocr: documentSpoofFacts(extras) } : {}),
    ...(portraitSex ? { portraitSex } : {}),
    ...(documentType ? { documentType } : {}),
    referenceDate: platform.now(),
  });
  return {
    status: 'success',
    envelope: { result, extras: { measurements } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? documentSpoofCheck.id,
    version: documentSpoofCheck.version,
    inputHashes: {
      front: sha256Of(front),
      ...(back ? { back: sha256Of(back) } : {}),
      ...(tilted ? { tilted: sha256Of(tilted) } : {}),
    },
  };
}

async function runSelfieSpoof({ platform, session }: RunContext): Promise<CheckRun> {
  const challenge = await findLastChallenge(platform.database.db, session.id);
  if (!challenge?.frame_blobs?.length) throw new MissingInputError('no live check frames were stored');
  const store = openBlobStore(platform.config, platform.keyring);
  const frames = [];
  for (const [i, key] of challenge.frame_blobs.entries()) {
    const image = await store.getBlob(key);
    if (!image) throw new MissingInputError(`live check frame ${i} blob is missing`);
    // Frame times are not stored; the check does not use them (selfie-spoof.check.ts).
    frames.push({ image, t: i });
  }
  const { result, measurements } = await runSelfieSpoofInWorker({
    frames,
    liveness: {
      passed: challenge.passed === true,
      confidence: challenge.confidence ?? 0,
      failures: challenge.failure_reasons ?? [],
      maxFaceDistance: null,
    },
  });
  return {
    status: 'success',
    envelope: { result, extras: { measurements } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? selfieSpoofCheck.id,
    version: selfieSpoofCheck.version,
    inputHashes: Object.fromEntries(frames.map((f, i) => [`frame${i}`, sha256Of(f.image)])),
  };
}

export function unavailable(checkId: CheckId) {
  return async (): Promise<CheckRun> => ({
    status: 'unavailable',
    envelope: {
      result: {
        status: 'unavailable',
        provider: PROVIDER,
        details: `${checkId} has no implementation in this build; the decision sends the verification to review`,
      },
    },
    provider: PROVIDER,
    model: 'none',
    version: '0',
    inputHashes: {},
  });
}

async function runFraudSignals(ctx: RunContext): Promise<CheckRun> {
  const { platform, session, thresholds } = ctx;
  const ocr = await readStoredResult<OcrResult, OcrExtras>(platform, session.id, 'ocr');
  const face = await readStoredResult(platform, session.id, 'faceMatch');
  if (!ocr || !face) throw new DependencyNotReady('fraudSignalAnalysis waits for ocr and faceMatch');
  const userInput = readUserInput(platform, session);
  const facts = await gatherFraudFacts(platform, session, {
    ocr: ocr.envelope.result,
    ocrExtras: ocr.envelope.extras ?? null,
    userInput,
    minimumAge: thresholds.minimumAge,
    sameFaceSimilarity: Math.max(0.75, thresholds.faceSimilarityThreshold + thresholds.faceNearThresholdBand),
    faceSimilarityThreshold: thresholds.faceSimilarityThreshold,
  });
  const analysis = analyzeFraudSignals(facts);
  const { riskScore, signals, ...extras } = analysis;
  return {
    status: 'success',
    envelope: { result: { riskScore, signals }, extras },
    provider: analysis.provider,
    model: analysis.model,
    version: FRAUD_SIGNALS_VERSION,
    inputHashes: {
      ocr: sha256Of(JSON.stringify(ocr.envelope.result)),
      faceMatch: sha256Of(JSON.stringify(face.envelope.result)),
      ...(userInput ? { userInput: sha256Of(JSON.stringify(userInput)) } : {}),
    },
  };
}

export const RUNNERS: Record<CheckId, (ctx: RunContext) => Promise<CheckRun>> = {
  ocr: runOcr,
  documentSpoofCheck: runDocumentSpoof,
  selfieSpoofCheck: runSelfieSpoof,
  faceMatch: runFaceMatch,
  fraudSignalAnalysis: runFraudSignals,
};
