// Everything the browser does in the flow after entering (docs/hosted-flow-api.md), one function
// per step. Each takes the flow context (the session the cookie holds) and returns what the JSON
// API answers.
import { randomBytes } from 'node:crypto';
import { CHECK_JOB_OPTIONS, type CheckJobData, checkQueue, checksForMethod } from '../checks/index.ts';
import type { OcrAnswers } from '../inference/index.ts';
import {
  CHALLENGE_VALIDITY_MS,
  drawChallengeSteps,
  drawLightSequence,
  LIGHT_FADE_MS,
  LIGHT_SEGMENT_MS,
  MAX_LIVENESS_ATTEMPTS,
} from '../liveness/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { decryptJson, encryptJson } from '../platform/crypto/encryption.ts';
import { newId } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import { enqueueInTransaction } from '../platform/jobs/job-queue.ts';
import type { Platform } from '../platform/platform.ts';
import {
  findSession,
  recordConsent,
  saveUserInput,
  setDocumentType,
  setVerificationMethod,
} from '../sessions/index.ts';
import { brandingOf, findTenant, thicknessCaptureRequired } from '../tenants/index.ts';
import {
  type DocumentQuality,
  documentQualityProblem,
  measureDocumentQuality,
} from './assess-document-quality.ts';
import { findChipReadingTime, offeredMethods, readChipFields } from './chip-reader.ts';
import { decodeUploadImage } from './decode-upload-image.ts';
import {
  allowedDocumentTypes,
  captureOcrBlobKey,
  DOCUMENT_TYPES,
  type DocumentPhoto,
  documentBlobKey,
  hasBackSide,
  hasCardEdge,
} from './document-types.ts';
import type { Language } from './flow-messages.ts';
import { logoUrlOf } from './flow-pages.ts';
import { csrfTokenFor, type FlowContext, requireOpenFlow } from './flow-session.ts';
import type { FlowState } from './flow-state.ts';
import {
  deleteDocuments,
  insertChallenge,
  listDocuments,
  markSubmitted,
  saveDocument,
} from './hosted-flow-repository.ts';
import type { CaptureVerdict, DocumentReading } from './identify-document-capture.ts';
import type { TiltedCheck } from './thickness-capture.ts';
import {
  normalizeUserInput,
  requiredUserInputFields,
  type UserInput,
  userInputContext,
} from './user-input.ts';

/** Interface §4.1: callbackUrl with sessionId, and state when one was given. */
export function callbackRedirect(session: FlowContext['session']): string {
  const url = new URL(session.callback_url);
  url.searchParams.set('sessionId', session.id);
  if (session.state !== null) url.searchParams.set('state', session.state);
  return url.toString();
}

export async function getFlowState(
  platform: Platform,
  context: FlowContext,
  language: Language,
): Promise<FlowState> {
  const { session } = context;
  const db = platform.database.db;
  const tenant = await findTenant(db, session.tenant_id);
  const documents = await listDocuments(db, session.id);
  const has = (side: DocumentPhoto) => documents.some((d) => d.side === side);
  const attemptsUsed = session.liveness_attempts;
  const front = documents.find((d) => d.side === 'front');
  const branding = brandingOf(tenant ?? { name: '', settings: {} });
  const methods = offeredMethods(session, tenant?.settings ?? {});
  const chipRead = methods.includes('ic_chip') ? await readChipFields(platform, session.id) : null;
  return {
    sessionId: session.id,
    status: session.status,
    language,
    csrfToken: csrfTokenFor(context.cookieValue),
    expiresAt: session.expires_at.toISOString(),
    verificationMethods: methods,
    allowedDocumentTypes: allowedDocumentTypes(tenant?.settings ?? {}),
    requiredUserInputFields: requiredUserInputFields(tenant?.settings ?? {}),
    documentType: DOCUMENT_TYPES.find((type) => type === session.document_type) ?? null,
    steps: {
      consent: session.consented_at !== null,
      documentType: session.document_type !== null,
      front: has('front'),
      back: session.document_type && hasBackSide(session.document_type) ? has('back') : null,
      tilted: tiltedPhotoAsked(tenant?.settings ?? {}, session.document_type) ? has('tilted') : null,
      liveness: {
        status: session.liveness_status ?? 'pending',
        attemptsUsed,
        attemptsLeft: session.liveness_status ? 0 : Math.max(0, MAX_LIVENESS_ATTEMPTS - attemptsUsed),
      },
      personalData: session.user_input_enc !== null,
      submitted: session.submitted_at !== null,
      chip: methods.includes('ic_chip') ? chipRead !== null : null,
    },
    personalData: session.user_input_enc
      ? decryptJson<UserInput>(platform.keyring, session.user_input_enc, userInputContext(session.id))
      : null,
    // The chip's MRZ (exact, signed) or what the capture check read with confidence, to prefill the form.
    documentReading: chipRead?.fields
      ? chipRead.fields
      : front?.reading_enc
        ? decryptJson<DocumentReading>(platform.keyring, front.reading_enc, readingContext(session.id))
        : null,
    tenant: {
      displayName: branding.displayName,
      accentColor: branding.accentColor,
      logoUrl: tenant ? logoUrlOf(tenant.id, branding) : null,
    },
    redirectTo: session.submitted_at ? callbackRedirect(session) : null,
  };
}

export async function giveConsent(platform: Platform, context: FlowContext): Promise<void> {
  requireOpenFlow(context);
  await recordConsent(platform.database.db, context.session.id, platform.now());
}

function requireConsent(context: FlowContext) {
  if (context.session.consented_at === null) throw new AppError('FlowStepOutOfOrder', 'Consent comes first');
}

/** Choosing another type drops the pictures of the previous one (they show another document). */
export async function chooseDocumentType(platform: Platform, context: FlowContext, documentType: string) {
  requireOpenFlow(context);
  requireConsent(context);
  const { session } = context;
  const tenant = await findTenant(platform.database.db, session.tenant_id);
  if (!(allowedDocumentTypes(tenant?.settings ?? {}) as string[]).includes(documentType)) {
    throw new AppError('DocumentTypeNotAllowed');
  }
  if (session.document_type === documentType) return;
  const dropped = await platform.database.db.transaction().execute(async (trx) => {
    await setDocumentType(trx, session.id, documentType, platform.now());
    return deleteDocuments(trx, session.id);
  });
  const blobs = openBlobStore(platform.config, platform.keyring);
  for (const key of dropped) {
    await blobs.deleteBlob(key);
    await blobs.deleteBlob(captureOcrBlobKey(key));
  }
}

/** The tenant asks for the thickness capture and the chosen document is a card. */
const tiltedPhotoAsked = (settings: Record<string, unknown>, documentType: string | null) =>
  thicknessCaptureRequired(settings) && documentType !== null && hasCardEdge(documentType);

export interface UploadedDocument {
  side: DocumentPhoto;
  width: number;
  height: number;
}

/** Judges the stored picture before it is kept (identify-document-capture.ts in the flow's routes). */
export type CaptureCheck = (
  image: { jpeg: Buffer; width: number; height: number },
  side: 'front' | 'back',
  chosen: string,
  options: { quality: DocumentQuality },
) => Promise<CaptureVerdict>;

const readingContext = (sessionId: string) => `session_documents.reading_enc:${sessionId}`;

/**
 * Checked, re-encoded, then stored encrypted; the row is written only after the
 * blob is durable, and the blob is removed again if the row cannot be written (nothing half-stored).
 */
export async function uploadDocumentImage(
  platform: Platform,
  context: FlowContext,
  side: DocumentPhoto,
  bytes: Buffer,
  checkCapture?: CaptureCheck,
  checkTilted?: TiltedCheck,
): Promise<UploadedDocument> {
  requireOpenFlow(context);
  requireConsent(context);
  const { session } = context;
  if (!session.document_type) throw new AppError('FlowStepOutOfOrder', 'Choose the document type first');
  if (side === 'back' && !hasBackSide(session.document_type)) {
    throw new AppError('FlowStepOutOfOrder', 'This document has no back side');
  }
  const blobs = openBlobStore(platform.config, platform.keyring);
  let front: Buffer | null = null;
  if (side === 'tilted') {
    const tenant = await findTenant(platform.database.db, session.tenant_id);
    if (!tiltedPhotoAsked(tenant?.settings ?? {}, session.document_type)) {
      throw new AppError('FlowStepOutOfOrder', 'This flow asks for no tilted photo of the document');
    }
    // The tilted card is compared with the front, so the front comes first.
    const row = (await listDocuments(platform.database.db, session.id)).find((d) => d.side === 'front');
    front = row ? await blobs.getBlob(row.blob_key) : null;
    if (!front) throw new AppError('FlowStepOutOfOrder', 'Photograph the front of the document first');
  }
  const image = await decodeUploadImage(bytes);
  const quality = measureDocumentQuality(image.grey);
  const problem = documentQualityProblem(image, quality);
  if (problem) throw new AppError(problem);
  let reading: DocumentReading | null = null;
  let ocrAnswers: OcrAnswers | undefined;
  if (side === 'tilted') {
    const verdict = front && checkTilted ? await checkTilted(image.jpeg, front) : { refusal: null };
    if (verdict.refusal) throw new AppError(verdict.refusal);
  } else if (checkCapture) {
    const verdict = await checkCapture(image, side, session.document_type, { quality });
    if (verdict.refusal) {
      // What was seen and what is wanted, for the message that names both.
      throw new AppError(verdict.refusal, undefined, [
        { path: '/documentType', message: session.document_type },
        ...(verdict.seen ? [{ path: '/seen', message: verdict.seen }] : []),
      ]);
    }
    reading = verdict.reading;
    ocrAnswers = verdict.ocrAnswers;
  }

  const key = documentBlobKey(session.id, side, randomBytes(8).toString('hex'));
  await blobs.putBlob(key, image.jpeg);
  // What the capture check read, for the pipeline not to read it again (before the row names the photo).
  if (ocrAnswers) await blobs.putBlob(captureOcrBlobKey(key), Buffer.from(JSON.stringify(ocrAnswers)));
  let replaced: string | null;
  try {
    replaced = await platform.database.db.transaction().execute(async (trx) => {
      const locked = await findSession(trx, session.id, true);
      // The type may have changed, or the flow been submitted, since this request began.
      if (!locked || locked.document_type !== session.document_type || locked.submitted_at !== null) {
        throw new AppError('FlowStepOutOfOrder');
      }
      return saveDocument(trx, {
        session_id: session.id,
        side,
        blob_key: key,
        content_type: 'image/jpeg',
        width: image.width,
        height: image.height,
        byte_size: image.jpeg.length,
        uploaded_at: platform.now(),
        reading_enc:
          reading && Object.keys(reading).length > 0
            ? encryptJson(platform.keyring, reading, readingContext(session.id))
            : null,
      });
    });
  } catch (error) {
    await blobs.deleteBlob(key);
    await blobs.deleteBlob(captureOcrBlobKey(key));
    throw error;
  }
  if (replaced) {
    await blobs.deleteBlob(replaced);
    await blobs.deleteBlob(captureOcrBlobKey(replaced));
  }
  return { side, width: image.width, height: image.height };
}

export interface IssuedChallenge {
  challengeId: string;
  steps: string[];
  /** The screen-light challenge: colours the page shows in turn from the capture's start. */
  light: { colours: string[]; segmentMs: number; fadeMs: number };
  expiresAt: string;
  attemptsLeft: number;
}

export async function issueLivenessChallenge(
  platform: Platform,
  context: FlowContext,
): Promise<IssuedChallenge> {
  requireOpenFlow(context);
  requireConsent(context);
  const { session } = context;
  if (session.liveness_status !== null) throw new AppError('FlowStepOutOfOrder', 'The face check is done');
  if (session.liveness_attempts >= MAX_LIVENESS_ATTEMPTS) throw new AppError('LivenessAttemptsExhausted');
  const issuedAt = platform.now();
  const challenge = {
    id: `lc_${newId('job').slice(4)}`,
    sessionId: session.id,
    steps: drawChallengeSteps(),
    lightSequence: drawLightSequence(),
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + CHALLENGE_VALIDITY_MS),
  };
  await insertChallenge(platform.database.db, challenge);
  return {
    challengeId: challenge.id,
    steps: challenge.steps,
    light: { colours: challenge.lightSequence, segmentMs: LIGHT_SEGMENT_MS, fadeMs: LIGHT_FADE_MS },
    expiresAt: challenge.expiresAt.toISOString(),
    attemptsLeft: MAX_LIVENESS_ATTEMPTS - session.liveness_attempts,
  };
}

export async function savePersonalData(
  platform: Platform,
  context: FlowContext,
  body: UserInput,
): Promise<UserInput> {
  requireOpenFlow(context);
  requireConsent(context);
  const tenant = await findTenant(platform.database.db, context.session.tenant_id);
  const input = normalizeUserInput(body, requiredUserInputFields(tenant?.settings ?? {}), platform.now());
  const sealed = encryptJson(platform.keyring, input, userInputContext(context.session.id));
  await saveUserInput(platform.database.db, context.session.id, sealed, platform.now());
  return input;
}

/**
 * The submission and one job per check commit together (enqueueInTransaction),
 * so there is never a submitted session without its jobs, nor jobs for an unsubmitted session.
 * Submitting twice is harmless: the second call only answers the redirect again.
 */
export async function submitVerification(
  platform: Platform,
  context: FlowContext,
): Promise<{ redirectTo: string }> {
  const { session } = context;
  await platform.database.db.transaction().execute(async (trx) => {
    const locked = await findSession(trx, session.id, true);
    if (!locked) throw new AppError('FlowSessionRequired');
    if (locked.submitted_at !== null) return;
    const tenant = await findTenant(trx, session.tenant_id);
    const offered = offeredMethods(locked, tenant?.settings ?? {});
    // A chip reading handed in (chip-reader.ts) makes this a chip session; else the photos are it.
    const chipRead = offered.includes('ic_chip') && (await findChipReadingTime(trx, session.id)) !== null;
    const method = chipRead ? 'ic_chip' : 'image';
    const missing: string[] = [];
    if (locked.consented_at === null) missing.push('consent');
    if (method === 'image' && !offered.includes('image')) missing.push('chip');
    else if (method === 'image') {
      const documents = await listDocuments(trx, session.id);
      if (!locked.document_type) missing.push('documentType');
      if (!documents.some((d) => d.side === 'front')) missing.push('front');
      if (
        tiltedPhotoAsked(tenant?.settings ?? {}, locked.document_type) &&
        !documents.some((d) => d.side === 'tilted')
      )
        missing.push('tilted');
      if (
        locked.document_type &&
        hasBackSide(locked.document_type) &&
        !documents.some((d) => d.side === 'back')
      ) {
        missing.push('back');
      }
    }
    // After the last failed attempt the flow goes on; the decision rejects with liveness_failed.
    if (locked.liveness_status === null) missing.push('liveness');
    if (locked.user_input_enc === null) missing.push('personalData');
    if (missing.length > 0) {
      throw new AppError(
        'FlowStepOutOfOrder',
        `Steps not done yet: ${missing.join(', ')}`,
        missing.map((step) => ({ path: `/steps/${step}`, message: 'not done' })),
      );
    }
    // The chip read is an ICAO 9303 eMRTD: the session's document is a passport.
    await setVerificationMethod(trx, session.id, method, method === 'ic_chip' ? 'passport' : null);
    await markSubmitted(trx, session.id, platform.now());
    for (const id of checksForMethod(method)) {
      const data: CheckJobData = { sessionId: session.id, tenantId: session.tenant_id };
      await enqueueInTransaction(platform.jobs, trx, checkQueue(id), data, CHECK_JOB_OPTIONS);
    }
  });
  return { redirectTo: callbackRedirect(session) };
}
