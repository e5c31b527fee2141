// The runners of the registry's checks (src/checks/check-registry.ts): a runner is handed the inputs
// its check declares and the stored results of the checks it waits for, runs the check, and returns
// what is stored. A check whose definition has `run` and runs on the event loop needs none: the
// generic runner (genericRunner) loads its inputs and calls `run`. Any other registered check
// without a runner here does not compile (RUNNERS). `unavailable(id)`
// remains for a check that cannot run in a build (a clearly labelled result, never a faked pass:
// the decision sends such a verification to review, src/decision/decide.ts).

import { documentSpoofCheck, documentSpoofFacts } from '../checks/document-spoof/index.ts';
import { decideFaceMatch, type FaceMatchResult } from '../checks/face-match/index.ts';
import { analyzeFraudSignals } from '../checks/fraud-signals/index.ts';
import type {
  CheckDefinition,
  CheckDefinitionOf,
  CheckId,
  CheckInputValues,
  InputsOf,
  WaitedResult,
  WaitsForOf,
} from '../checks/index.ts';
import {
  CHECKS,
  checkDefinition,
  notRunnableByDefinition,
  PROVIDER,
  runByDefinition,
} from '../checks/index.ts';
import { DOCUMENT_TYPES, type DocumentType, type OcrExtras } from '../checks/ocr/index.ts';
import { selfieSpoofCheck } from '../checks/selfie-spoof/index.ts';
import {
  ChipReadingRejected,
  chipFaceAsJpeg,
  chipIdentity,
  FaceImageError,
  loadTrustStore,
  parseDg2,
  verifyChipReading,
} from '../chip/index.ts';
import type { DecisionThresholds } from '../decision/index.ts';
import type { IcChip, OcrResult } from '../domain/index.ts';
import { findLastChallenge, loadChipReading, type UserInput } from '../hosted-flow/index.ts';
import {
  describeDocumentFaceInWorker,
  describeReferenceFaceInWorker,
  documentGeometryInWorker,
  runDocumentSpoofInWorker,
  runOcrWithAnswers,
  runSelfieSpoofInWorker,
} from '../inference/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { encryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';
import {
  loadCaptureOcrAnswers,
  loadDocumentImages,
  loadReferenceImage,
  MissingInputError,
  readUserInput,
  sha256Of,
} from './check-inputs.ts';
import { type FraudInputs, gatherFraudFacts } from './gather-fraud-facts.ts';
import { type CheckResultRow, saveFaceDescriptor } from './pipeline-repository.ts';
import { descriptorContext, type ResultEnvelope, readStoredResult } from './stored-results.ts';

export interface CheckRun {
  status: 'success' | 'unavailable';
  envelope: ResultEnvelope;
  provider: string;
  model: string;
  inputHashes: Record<string, string>;
}

/** What the pipeline loads for a check, by the names checks declare (src/checks/check-definition.ts). */
export interface CheckInputLoaders {
  documentImages(): Promise<{ front: Buffer; back?: Buffer | undefined; tilted?: Buffer | undefined }>;
  /** As the user chose it (the hosted flow accepts only the document types mimoto defines). */
  documentType(): string | null;
  referenceImage(): Promise<Buffer | null>;
  livenessFrames(): Promise<LivenessFrames>;
  userInput(): UserInput | null;
  thresholds(): DecisionThresholds;
  tenantHistory(inputs: FraudInputs): ReturnType<typeof gatherFraudFacts>;
  chipReading(): Promise<CheckInputValues['chipReading']>;
}

type LivenessFrames = CheckInputValues['livenessFrames'];

export interface RunContext<Id extends CheckId> {
  platform: Platform;
  session: SessionRow;
  /** The inputs the check declares, and only those. */
  inputs: Pick<CheckInputLoaders, InputsOf<Id>>;
  /** The stored result of a check it waits for; DependencyNotReady when there is none. */
  resultOf<R = Record<string, unknown>, E = Record<string, unknown>>(
    id: WaitsForOf<Id>,
  ): Promise<{ row: CheckResultRow; envelope: ResultEnvelope<R, E> }>;
}

export type CheckRunner<Id extends CheckId> = (ctx: RunContext<Id>) => Promise<CheckRun>;

/**
 * Thrown by a check whose inputs (other checks' results) are not stored: the job ends quietly. runCheckJob
 * already waits for the checks a definition waits for to be current; this guards a runner reading one that is missing.
 */
export class DependencyNotReady extends Error {
  override name = 'DependencyNotReady';
}

/** Checks that read other checks' results run once those count for the session's generation (run-check-job.ts). */
export const CHECK_DEPENDENCIES = Object.fromEntries(
  CHECKS.map((check) => [check.id, check.waitsFor]),
) as unknown as Readonly<Record<CheckId, readonly CheckId[]>>;

/**
 * The OCR check with its geometry in the worker threads (Tesseract reads in threads of its own),
 * replaying the passes the capture check made on the same stored front (inference/ocr-answers.ts):
 * the front is read once per photo, the back and anything new here.
 */
const runOcr: CheckRunner<'ocr'> = async ({ platform, session, inputs }) => {
  const { front, back } = await inputs.documentImages();
  const expectedDocumentType = inputs.documentType();
  if (!expectedDocumentType) throw new MissingInputError('no document type was chosen');
  const {
    outcome: { result, extras },
  } = await runOcrWithAnswers(
    { front, ...(back ? { back } : {}), expectedDocumentType },
    { geometry: documentGeometryInWorker, previous: await loadCaptureOcrAnswers(platform, session) },
  );
  return {
    status: 'success',
    envelope: { result, extras: { ...extras } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? 'tesseract.js',
    inputHashes: { front: sha256Of(front), ...(back ? { back: sha256Of(back) } : {}) },
  };
};

/**
 * The document's face of a chip session: DG2's picture (a face photo, as the selfie is, so it is
 * described as one), decoded from JPEG 2000 when it is one (src/chip/face-image.ts).
 */
async function chipFace(inputs: Pick<CheckInputLoaders, 'chipReading'>) {
  const { dataGroups } = await inputs.chipReading();
  if (!dataGroups[2]) throw new MissingInputError('the chip reading holds no DG2');
  let jpeg: Buffer;
  try {
    jpeg = await chipFaceAsJpeg(parseDg2(dataGroups[2]));
  } catch (error) {
    // A face that cannot be read is no face: the decision sends it to a human (face_mismatch review).
    if ((error as Error).name === 'DataGroupFormatError' || error instanceof FaceImageError) return null;
    throw error;
  }
  return { jpeg, ...(await describeReferenceFaceInWorker(jpeg)) };
}

const runFaceMatch: CheckRunner<'faceMatch'> = async ({ platform, session, inputs }) => {
  const chip = session.verification_method === 'ic_chip';
  const front = chip ? null : (await inputs.documentImages()).front;
  const chipSide = chip ? await chipFace(inputs) : null;
  const documentHash = sha256Of(front ?? chipSide?.jpeg ?? Buffer.alloc(0));
  const reference = await inputs.referenceImage();
  if (!reference) {
    // Every live-check attempt failed, so there is no selfie to compare: an outcome, not a fault
    // to retry (the decision rejects with liveness_failed).
    const noReference: CheckRun = {
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
      inputHashes: { documentPortrait: documentHash },
    };
    return noReference;
  }
  // Both pictures at once, in two worker threads (inference/inference-pool.ts); the document's face from
  // its printed portrait when the card is found (document-portrait.ts), or the chip's.
  const [documentSide, selfieSide] = await Promise.all([
    front
      ? describeDocumentFaceInWorker(front, knownDocumentType(inputs.documentType()))
      : Promise.resolve({ face: chipSide?.face ?? null, portrait: null }),
    describeReferenceFaceInWorker(reference),
  ]);
  const document = documentSide.face;
  const selfie = selfieSide.face;
  const faceApiVersion = selfieSide.faceApiVersion;
  const thresholds = inputs.thresholds();
  const decided = decideFaceMatch({
    document,
    selfie,
    faceApiVersion,
    ...(documentSide.portrait ? { documentFaceSource: documentSide.portrait } : {}),
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
    inputHashes: { documentPortrait: documentHash, referenceImage: sha256Of(reference) },
  };
};

/**
 * The chip reading verified (src/chip/verify-chip-reading.ts) against the trust store as the
 * operator configures it now (MIMOTO_CHIP_CSCA_FILES) and the nonce the service issued for it.
 */
const runIcChip: CheckRunner<'icChip'> = async ({ platform, inputs }) => {
  const { nonce, ...reading } = await inputs.chipReading();
  const now = platform.now();
  const trustAnchors = loadTrustStore(platform.config.chipCscaFiles);
  let verification: ReturnType<typeof verifyChipReading>;
  try {
    verification = verifyChipReading(reading, { trustAnchors, nonce, now });
  } catch (error) {
    // The flow judged it usable before storing it; one that is not now cannot become so by retrying.
    if (error instanceof ChipReadingRejected) throw new MissingInputError(`chip reading: ${error.message}`);
    throw error;
  }
  const identity = verification.mrz ? chipIdentity(verification.mrz, now) : {};
  const { documentNumber, expiryDate, ...payload } = identity;
  const today = now.toISOString().slice(0, 10);
  const result: IcChip = {
    method: 'ic_chip',
    documentKind: verification.documentKind,
    verified: verification.verified,
    status: 'success',
    checks: verification.checks,
    reasons: verification.reasons,
    ...(Object.keys(payload).length > 0 ? { payload } : {}),
    ...(expiryDate ? { documentExpired: expiryDate < today } : {}),
    ...(verification.face ? { faceFormat: verification.face.format } : {}),
    provider: PROVIDER,
    model: 'icao-9303-pa-aa',
  };
  return {
    status: 'success',
    envelope: {
      result,
      extras: {
        ...(documentNumber ? { documentNumber } : {}),
        ...(expiryDate ? { expiryDate } : {}),
        mrzValid: verification.mrz?.valid ?? false,
        documentSigner: verification.documentSigner,
        trustAnchors: trustAnchors.length,
      },
    },
    provider: PROVIDER,
    model: 'icao-9303-pa-aa',
    inputHashes: {
      sod: sha256Of(reading.sod),
      nonce: sha256Of(nonce),
      ...Object.fromEntries(
        Object.entries(reading.dataGroups).map(([n, bytes]) => [`dg${n}`, sha256Of(bytes as Buffer)]),
      ),
    },
  };
};

interface IcChipExtras {
  documentNumber?: string;
  expiryDate?: string;
  mrzValid?: boolean;
}

const runDocumentSpoof: CheckRunner<'documentSpoofCheck'> = async ({ platform, inputs, resultOf }) => {
  const ocr = await resultOf<OcrResult, OcrExtras>('ocr');
  const face = await resultOf<unknown, Partial<FaceMatchResult>>('faceMatch');
  const portraitSex = face.envelope.extras?.document?.apparentSex;
  const { front, back, tilted } = await inputs.documentImages();
  const extras = ocr.envelope.extras;
  const documentType = knownDocumentType(inputs.documentType());
  const { result, measurements } = await runDocumentSpoofInWorker({
    front,
    ...(back ? { back } : {}),
    ...(tilted ? { tilted } : {}),
    ...(extras ? { ocr: documentSpoofFacts(extras, ocr.envelope.result) } : {}),
    ...(portraitSex ? { portraitSex } : {}),
    ...(documentType ? { documentType } : {}),
    referenceDate: platform.now(),
  });
  return {
    status: 'success',
    envelope: { result, extras: { measurements } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? documentSpoofCheck.id,
    inputHashes: {
      front: sha256Of(front),
      ...(back ? { back: sha256Of(back) } : {}),
      ...(tilted ? { tilted: sha256Of(tilted) } : {}),
    },
  };
};

const runSelfieSpoof: CheckRunner<'selfieSpoofCheck'> = async ({ inputs }) => {
  const { frames, liveness } = await inputs.livenessFrames();
  const { result, measurements, injectionSignals } = await runSelfieSpoofInWorker({ frames, liveness });
  return {
    status: 'success',
    envelope: { result, extras: { measurements, injectionSignals } },
    provider: result.provider ?? PROVIDER,
    model: result.model ?? selfieSpoofCheck.id,
    inputHashes: Object.fromEntries(frames.map((f, i) => [`frame${i}`, sha256Of(f.image)])),
  };
};

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
    inputHashes: {},
  });
}

const runFraudSignals: CheckRunner<'fraudSignalAnalysis'> = async ({ session, inputs, resultOf }) => {
  // A chip session's identity is the chip's signed MRZ, handed over in the OCR's shape.
  const read =
    session.verification_method === 'ic_chip'
      ? chipAsReading(await resultOf<IcChip, IcChipExtras>('icChip'))
      : await resultOf<OcrResult, OcrExtras>('ocr');
  const face = await resultOf('faceMatch');
  const userInput = inputs.userInput();
  const thresholds = inputs.thresholds();
  const facts = await inputs.tenantHistory({
    ocr: read.envelope.result,
    ocrExtras: read.envelope.extras ?? null,
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
    inputHashes: {
      [session.verification_method === 'ic_chip' ? 'icChip' : 'ocr']: sha256Of(
        JSON.stringify(read.envelope.result),
      ),
      faceMatch: sha256Of(JSON.stringify(face.envelope.result)),
      ...(userInput ? { userInput: sha256Of(JSON.stringify(userInput)) } : {}),
    },
  };
};

/**
 * The chip's verified fields as the fraud facts read an OCR reading: its names and birth date, the
 * document number and expiry date (exact: a signed MRZ), its check digits. Only a verified chip's
 * fields count as read; else the user's input stands in, as for a poor capture.
 */
function chipAsReading(chip: { envelope: { result: IcChip; extras?: IcChipExtras } }): {
  envelope: { result: OcrResult; extras: OcrExtras };
} {
  const { result, extras } = chip.envelope;
  return {
    envelope: {
      result: {
        status: result.verified ? 'success' : 'low_confidence',
        ...(result.payload ? { payload: result.payload } : {}),
      },
      extras: {
        documentTypeMismatch: false,
        fields: {},
        ...(extras?.documentNumber ? { documentNumber: extras.documentNumber } : {}),
        ...(extras?.expiryDate ? { expiryDate: extras.expiryDate, expiryDateReliable: true } : {}),
      } as OcrExtras,
    },
  };
}

/** The checks the generic runner can run: `run` declared, on the event loop, inputs it can load. */
type RunGenerically = {
  [Id in CheckId]: CheckDefinitionOf<Id> extends { runsIn: 'eventLoop'; run: (...args: never) => unknown }
    ? Exclude<InputsOf<Id>, keyof CheckInputValues> extends never
      ? Id
      : never
    : never;
}[CheckId];

/**
 * The runners written for checks: the type asks for one per registered check the generic runner
 * cannot run, and allows one for any other (it then replaces the generic runner).
 */
export const RUNNERS: { readonly [Id in Exclude<CheckId, RunGenerically>]: CheckRunner<Id> } & {
  readonly [Id in RunGenerically]?: CheckRunner<Id>;
} = {
  ocr: runOcr,
  documentSpoofCheck: runDocumentSpoof,
  selfieSpoofCheck: runSelfieSpoof,
  faceMatch: runFaceMatch,
  fraudSignalAnalysis: runFraudSignals,
  icChip: runIcChip,
};

/** The document type chosen, when mimoto knows where its portrait and values are printed. */
function knownDocumentType(chosen: string | null): DocumentType | null {
  return (DOCUMENT_TYPES as readonly string[]).includes(chosen ?? '') ? (chosen as DocumentType) : null;
}

async function loadLivenessFrames(platform: Platform, session: SessionRow): Promise<LivenessFrames> {
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
  return {
    frames,
    liveness: {
      passed: challenge.passed === true,
      confidence: challenge.confidence ?? 0,
      failures: challenge.failure_reasons ?? [],
      maxFaceDistance: null,
      screenLight: challenge.screen_light === null ? null : { correlation: challenge.screen_light },
      injectionSignals: challenge.injection_signals,
    },
  };
}

/** Each input `run` can be given, from the loaders; the types hold the loaders to CheckInputValues. */
const INPUT_VALUES: {
  readonly [K in keyof CheckInputValues]: (
    loaders: CheckInputLoaders,
  ) => CheckInputValues[K] | Promise<CheckInputValues[K]>;
} = {
  documentImages: (loaders) => loaders.documentImages(),
  documentType: (loaders) => loaders.documentType(),
  referenceImage: (loaders) => loaders.referenceImage(),
  livenessFrames: (loaders) => loaders.livenessFrames(),
  userInput: (loaders) => loaders.userInput(),
  thresholds: (loaders) => ({ ...loaders.thresholds() }),
  chipReading: (loaders) => loaders.chipReading(),
};

/** Hashes an input as stored with the result (inputHashes): bytes as they are, the rest as JSON. */
function hashOf(value: unknown): string {
  return Buffer.isBuffer(value) ? sha256Of(value) : sha256Of(JSON.stringify(bytesHashed(value)));
}
/** `value` with each Buffer in it replaced by its hash, so an image is not written out as JSON. */
function bytesHashed(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return `sha256:${sha256Of(value)}`;
  if (Array.isArray(value)) return value.map(bytesHashed);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, bytesHashed(v)]));
  }
  return value;
}

/**
 * The runner of a check declared with `run` and no runner in RUNNERS: loads the inputs it declares
 * and the results it waits for, calls `run` here, on the worker's event loop, and stores what it
 * returns once its result schema accepts it. A check running in the threads is refused: the
 * threads (src/inference) run named tasks of their own, not a definition's function, so such a
 * check has a runner that dispatches to them.
 */
export function genericRunner(definition: CheckDefinition): CheckRunner<CheckId> {
  return async ({ platform, inputs, resultOf }) => {
    const { id } = definition;
    const refused = notRunnableByDefinition(definition);
    if (refused !== null) throw new Error(refused);
    const loaders = inputs as unknown as CheckInputLoaders;
    const values: Record<string, unknown> = {};
    for (const name of definition.inputs) {
      if (!(name in INPUT_VALUES))
        throw new Error(`${id} reads ${name}: it needs a runner in check-runners.ts`);
      values[name] = await INPUT_VALUES[name as keyof CheckInputValues](loaders);
    }
    const results: Record<string, WaitedResult> = {};
    for (const other of definition.waitsFor) {
      const { envelope } = await resultOf(other as never);
      results[other] = { result: envelope.result, extras: envelope.extras };
    }
    const output = await runByDefinition(definition, {
      inputs: values as never,
      results,
      now: platform.now(),
    });
    return {
      status: 'success',
      envelope: { result: output.result as Record<string, unknown>, extras: output.extras ?? {} },
      provider: output.provider ?? PROVIDER,
      model: output.model ?? id,
      inputHashes: {
        ...Object.fromEntries(Object.entries(values).map(([name, value]) => [name, hashOf(value)])),
        ...Object.fromEntries(Object.entries(results).map(([other, r]) => [other, hashOf(r.result)])),
      },
    };
  };
}

/** Every loader; a runner sees only those its check declares (RunContext.inputs). */
function inputLoaders(
  platform: Platform,
  session: SessionRow,
  thresholds: DecisionThresholds,
): CheckInputLoaders {
  return {
    documentImages: () => loadDocumentImages(platform, session),
    documentType: () => session.document_type,
    referenceImage: () => loadReferenceImage(platform, session),
    livenessFrames: () => loadLivenessFrames(platform, session),
    userInput: () => readUserInput(platform, session),
    thresholds: () => thresholds,
    tenantHistory: (facts) => gatherFraudFacts(platform, session, facts),
    chipReading: async () => {
      const stored = await loadChipReading(platform, session.id);
      if (!stored) throw new MissingInputError('no chip reading was stored');
      return { ...stored.reading, nonce: stored.nonce };
    },
  };
}

/** Runs check `checkId`'s runner, or the generic runner, with its declared inputs and the results it waits for. */
export function runCheck<Id extends CheckId>(
  checkId: Id,
  platform: Platform,
  session: SessionRow,
  thresholds: DecisionThresholds,
): Promise<CheckRun> {
  return runDeclaredCheck(checkDefinition(checkId), platform, session, thresholds);
}

/**
 * runCheck for a definition, registered or not (a test declares a check of its own): its runner in
 * RUNNERS when there is one, else the generic runner.
 */
export function runDeclaredCheck(
  definition: CheckDefinition,
  platform: Platform,
  session: SessionRow,
  thresholds: DecisionThresholds,
): Promise<CheckRun> {
  const written = (RUNNERS as Partial<Record<string, CheckRunner<CheckId>>>)[definition.id];
  const runner = written ?? genericRunner(definition);
  return runner({
    platform,
    session,
    inputs: inputLoaders(platform, session, thresholds),
    async resultOf<R, E>(id: CheckId) {
      const stored = await readStoredResult<R, E>(platform, session.id, id);
      if (!stored) throw new DependencyNotReady(`${definition.id} waits for ${id}`);
      return stored;
    },
  });
}
