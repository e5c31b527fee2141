// The session row's changes made for the capabilities above sessions: the hosted flow's steps, the
// pipeline's generations and outcome, a reviewer's verdict, the erasure of personal data. Each is
// one function here, so the SQL of verification_sessions stays in sessions (ARCHITECTURE.md
// "Database"); every function runs in the transaction it is handed.
import type { Expression } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { SessionStatus, VerificationStatus } from '../platform/db/schema.ts';

/** The first valid use of the link (docs/decisions.md "verificationUrl"). */
export async function startFlow(
  db: Db,
  sessionId: string,
  values: { cookieHash: string; now: Date; expiresAt: Date; firstAccessIp: string },
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({
      link_used_at: values.now,
      // The fraud check compares it with clientIpAddress.
      first_access_ip: values.firstAccessIp,
      status: 'in_progress',
      flow_cookie_hash: values.cookieHash,
      expires_at: values.expiresAt,
      updated_at: values.now,
    })
    .where('id', '=', sessionId)
    .where('link_used_at', 'is', null)
    .execute();
}

/** The session moves to the browser holding this cookie (a phone hand-off). */
export async function setFlowCookie(db: Db, sessionId: string, cookieHash: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ flow_cookie_hash: cookieHash, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

export async function recordConsent(db: Db, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ consented_at: now, updated_at: now })
    .where('id', '=', sessionId)
    .where('consented_at', 'is', null)
    .execute();
}

export async function setDocumentType(db: Db, sessionId: string, documentType: string, now: Date) {
  await db
    .updateTable('verification_sessions')
    .set({ document_type: documentType, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

/** At submission: the method the person used, and the document type it implies (chip: passport). */
export async function setVerificationMethod(
  db: Db,
  sessionId: string,
  method: string,
  documentType: string | null,
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ verification_method: method, ...(documentType ? { document_type: documentType } : {}) })
    .where('id', '=', sessionId)
    .execute();
}

/** Something of the session changed elsewhere (an uploaded side). */
export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

/**
 * Counts one live check attempt when one is left and the check is not decided yet: the attempts
 * used with it, or null (nothing written) otherwise.
 */
export async function countLivenessAttempt(
  db: Db,
  values: { sessionId: string; maxAttempts: number; now: Date },
): Promise<number | null> {
  const row = await db
    .updateTable('verification_sessions')
    .set((eb) => ({ liveness_attempts: eb('liveness_attempts', '+', 1), updated_at: values.now }))
    .where('id', '=', values.sessionId)
    .where('liveness_attempts', '<', values.maxAttempts)
    .where('liveness_status', 'is', null)
    .returning('liveness_attempts')
    .executeTakeFirst();
  return row === undefined ? null : Number(row.liveness_attempts);
}

/** The live check is decided: passed, or failed for the last time. */
export async function recordLivenessOutcome(
  db: Db,
  values: {
    sessionId: string;
    status: 'success' | 'failed';
    confidence: number;
    referenceBlob: string | null;
    now: Date;
  },
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({
      liveness_status: values.status,
      liveness_confidence: values.confidence,
      liveness_reference_blob: values.referenceBlob,
      updated_at: values.now,
    })
    .where('id', '=', values.sessionId)
    .execute();
  if (values.status === 'success') {
    // docs/decisions.md "Session status": in_progress → liveness_success.
    await db
      .updateTable('verification_sessions')
      .set({ status: 'liveness_success' })
      .where('id', '=', values.sessionId)
      .where('status', '=', 'in_progress')
      .execute();
  }
}

export async function saveUserInput(db: Db, sessionId: string, userInputEnc: string, now: Date) {
  await db
    .updateTable('verification_sessions')
    .set({ user_input_enc: userInputEnc, updated_at: now })
    .where('id', '=', sessionId)
    .where('submitted_at', 'is', null)
    .execute();
}

export async function markSessionSubmitted(db: Db, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ submitted_at: now, verification_status: 'processing', updated_at: now })
    .where('id', '=', sessionId)
    .where('submitted_at', 'is', null)
    .execute();
}

/**
 * A reprocess: the next generation, naming the checks it runs again. Returns the new generation.
 * The request is kept so that a decision it changes can say so (the payload's reprocess block).
 */
export async function startGeneration(
  db: Db,
  sessionId: string,
  checks: readonly string[],
  now: Date,
  reason = '',
) {
  const row = await db
    .updateTable('verification_sessions')
    .set((eb) => ({
      pipeline_generation: eb('pipeline_generation', '+', 1),
      pipeline_checks: [...checks],
      reprocess_requested_at: now,
      reprocess_reason: reason,
      updated_at: now,
    }))
    .where('id', '=', sessionId)
    .returning('pipeline_generation')
    .executeTakeFirstOrThrow();
  return row.pipeline_generation;
}

/** docs/decisions.md "Session status": a decision makes the session completed. */
export async function completeSession(
  db: Db,
  sessionId: string,
  status: 'approved' | 'rejected' | 'pending_review',
  now: Date,
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ status: 'completed', verification_status: status, failure_reason: null, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

/** docs/decisions.md "Session status": any non-final → failed when a check failed permanently. */
export async function failSession(db: Db, sessionId: string, cause: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ status: 'failed', failure_reason: cause.slice(0, 1000), updated_at: now })
    .where('id', '=', sessionId)
    .where('status', 'not in', ['completed', 'expired', 'failed'])
    .execute();
}

export async function setVerificationStatus(
  db: Db,
  sessionId: string,
  status: VerificationStatus,
  now: Date,
): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({ verification_status: status, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

export async function setSessionStatus(db: Db, sessionId: string, status: SessionStatus, now: Date) {
  await db
    .updateTable('verification_sessions')
    .set({ status, updated_at: now })
    .where('id', '=', sessionId)
    .execute();
}

/**
 * The ids of the tenant's sessions from `ip` created in [from, to], as a subquery for another
 * table's statement (the fraud check's count of identities per IP).
 */
export function sessionIdsFromIp(
  db: Db,
  tenantId: string,
  ip: string,
  from: Date,
  to: Date,
): Expression<string> {
  return db
    .selectFrom('verification_sessions')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('client_ip', '=', ip)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .$asScalar();
}

/** The live check's reference images of these sessions (the blobs their erasure deletes). */
export async function listLivenessReferenceBlobs(db: Db, sessionIds: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('verification_sessions')
    .select('liveness_reference_blob')
    .where('id', 'in', sessionIds)
    .execute();
  return rows.flatMap((r) => (r.liveness_reference_blob ? [r.liveness_reference_blob] : []));
}

/** Empties the sessions' personal columns and stamps them erased. */
export async function markSessionsErased(db: Db, sessionIds: string[], now: Date): Promise<void> {
  await db
    .updateTable('verification_sessions')
    .set({
      pre_registered_info_enc: null,
      user_input_enc: null,
      client_ip: null,
      first_access_ip: null,
      data_erased_at: now,
    })
    .where('id', 'in', sessionIds)
    .execute();
}
