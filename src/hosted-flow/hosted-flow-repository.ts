// SQL of the hosted flow (style.md: SQL only in repositories): the uploaded sides, the live check's
// challenges, the phone hand-off codes. Every call names the session it acts for; the session was
// found through its link token or its flow cookie, never by a bare id from the browser. The session
// row's own changes go through sessions, in the same transaction.
import type { Selectable } from 'kysely';
import type { CameraReport, InjectionSignal } from '../liveness/index.ts';
import type { Db } from '../platform/db/open-database.ts';
import type { LivenessChallengesTable, SessionDocumentsTable } from '../platform/db/schema.ts';
import {
  countLivenessAttempt,
  markSessionSubmitted,
  recordLivenessOutcome,
  setFlowCookie,
  touchSession,
} from '../sessions/index.ts';
import { captureOcrBlobKey } from './document-types.ts';

export type DocumentRow = Selectable<SessionDocumentsTable>;
export type ChallengeRow = Selectable<LivenessChallengesTable>;

export async function listDocuments(db: Db, sessionId: string): Promise<DocumentRow[]> {
  return db.selectFrom('session_documents').selectAll().where('session_id', '=', sessionId).execute();
}

/** Removes the session's document rows; returns their blob keys (deleted by the caller after commit). */
export async function deleteDocuments(db: Db, sessionId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('session_documents')
    .where('session_id', '=', sessionId)
    .returning('blob_key')
    .execute();
  return rows.map((r) => r.blob_key);
}

/** Inserts or replaces one side; returns the replaced blob key, if any. */
export async function saveDocument(db: Db, row: DocumentRow): Promise<string | null> {
  const previous = await db
    .selectFrom('session_documents')
    .select('blob_key')
    .where('session_id', '=', row.session_id)
    .where('side', '=', row.side)
    .forUpdate()
    .executeTakeFirst();
  await db
    .insertInto('session_documents')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['session_id', 'side']).doUpdateSet({
        blob_key: row.blob_key,
        content_type: row.content_type,
        width: row.width,
        height: row.height,
        byte_size: row.byte_size,
        uploaded_at: row.uploaded_at,
        reading_enc: row.reading_enc,
      }),
    )
    .execute();
  await touchSession(db, row.session_id, row.uploaded_at);
  return previous?.blob_key ?? null;
}

export async function insertChallenge(
  db: Db,
  challenge: {
    id: string;
    sessionId: string;
    steps: string[];
    /** Colours of the screen-light challenge (none: not asked). */
    lightSequence?: string[];
    issuedAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('liveness_challenges')
    .values({
      id: challenge.id,
      session_id: challenge.sessionId,
      steps: challenge.steps,
      light_sequence: challenge.lightSequence ?? [],
      issued_at: challenge.issuedAt,
      expires_at: challenge.expiresAt,
    })
    .execute();
}

/**
 * Uses the challenge up (single use, so a capture cannot be replayed) and counts the attempt: the
 * challenge must be the session's, unused and unexpired, and an attempt must be left. Returns the
 * challenge, or a reason it cannot be used — then the caller rolls the transaction back, so a
 * refused upload neither uses the challenge nor costs an attempt.
 */
/** The session's challenge when it can still be answered (unused, unexpired); changes nothing. */
export async function findOpenChallenge(
  db: Db,
  values: { sessionId: string; challengeId: string; now: Date },
): Promise<ChallengeRow | undefined> {
  return db
    .selectFrom('liveness_challenges')
    .selectAll()
    .where('id', '=', values.challengeId)
    .where('session_id', '=', values.sessionId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', values.now)
    .executeTakeFirst();
}

export async function claimChallenge(
  db: Db,
  values: { sessionId: string; challengeId: string; now: Date; maxAttempts: number },
): Promise<(ChallengeRow & { attemptsUsed: number }) | 'invalid' | 'exhausted'> {
  const challenge = await db
    .updateTable('liveness_challenges')
    .set({ used_at: values.now })
    .where('id', '=', values.challengeId)
    .where('session_id', '=', values.sessionId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', values.now)
    .returningAll()
    .executeTakeFirst();
  if (!challenge) return 'invalid';
  const attemptsUsed = await countLivenessAttempt(db, values);
  return attemptsUsed === null ? 'exhausted' : { ...challenge, attemptsUsed };
}

export async function recordLivenessAttempt(
  db: Db,
  values: {
    sessionId: string;
    challengeId: string;
    passed: boolean;
    confidence: number;
    failures: string[];
    frameBlobs: string[];
    /** The screen-light correlation (null or absent: not measured). */
    screenLight?: number | null;
    /** What the browser said of its camera, and the injection signals found (injection-signals.ts). */
    camera?: CameraReport | null;
    injectionSignals?: readonly InjectionSignal[];
    /** Set when the check is decided: passed, or failed for the last time. */
    outcome: { status: 'success' | 'failed'; referenceBlob: string | null } | null;
    now: Date;
  },
): Promise<void> {
  await db
    .updateTable('liveness_challenges')
    .set({
      passed: values.passed,
      confidence: values.confidence,
      failure_reasons: values.failures,
      frame_blobs: values.frameBlobs,
      screen_light: values.screenLight ?? null,
      camera: values.camera ? JSON.stringify(values.camera) : null,
      injection_signals: [...(values.injectionSignals ?? [])],
    })
    .where('id', '=', values.challengeId)
    .execute();
  if (!values.outcome) return;
  await recordLivenessOutcome(db, {
    sessionId: values.sessionId,
    status: values.outcome.status,
    confidence: values.confidence,
    referenceBlob: values.outcome.referenceBlob,
    now: values.now,
  });
}

export async function markSubmitted(db: Db, sessionId: string, now: Date): Promise<void> {
  // The capture's reading served the form only; the pipeline reads the document itself.
  await db
    .updateTable('session_documents')
    .set({ reading_enc: null })
    .where('session_id', '=', sessionId)
    .execute();
  await markSessionSubmitted(db, sessionId, now);
}

/** The session's last used live check challenge, if any (the fraud check reads its timing). */
export async function findLastChallenge(db: Db, sessionId: string) {
  return db
    .selectFrom('liveness_challenges')
    .select([
      'issued_at',
      'used_at',
      'passed',
      'confidence',
      'failure_reasons',
      'frame_blobs',
      'screen_light',
      'injection_signals',
    ])
    .where('session_id', '=', sessionId)
    .where('used_at', 'is not', null)
    .orderBy('used_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The stored frames of the session's last used live check challenge (null when none). */
export async function findLastFrameBlobs(db: Db, sessionId: string): Promise<string[] | null> {
  return (await findLastChallenge(db, sessionId))?.frame_blobs ?? null;
}

/** A new hand-off code for the session; the codes it had not used yet stop working. */
export async function insertHandoff(
  db: Db,
  row: { tokenHash: string; sessionId: string; issuerCookieHash: string; now: Date; expiresAt: Date },
) {
  await db
    .updateTable('flow_handoffs')
    .set({ expires_at: row.now })
    .where('session_id', '=', row.sessionId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', row.now)
    .execute();
  await db
    .insertInto('flow_handoffs')
    .values({
      token_hash: row.tokenHash,
      session_id: row.sessionId,
      issuer_cookie_hash: row.issuerCookieHash,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function lockHandoff(db: Db, tokenHash: string) {
  return db
    .selectFrom('flow_handoffs')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

/** The code is spent and the session moves to the browser holding the new cookie. */
export async function moveSessionByHandoff(
  db: Db,
  values: { tokenHash: string; sessionId: string; cookieHash: string; now: Date },
) {
  await db
    .updateTable('flow_handoffs')
    .set({ used_at: values.now })
    .where('token_hash', '=', values.tokenHash)
    .execute();
  await setFlowCookie(db, values.sessionId, values.cookieHash, values.now);
}

/** The last hand-off the browser with this cookie asked for. */
export async function findHandoffByIssuer(db: Db, issuerCookieHash: string) {
  return db
    .selectFrom('flow_handoffs')
    .selectAll()
    .where('issuer_cookie_hash', '=', issuerCookieHash)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Every blob key the sessions' flow rows name: document sides and live-check frames. */
export async function listFlowBlobKeys(db: Db, sessionIds: string[]): Promise<string[]> {
  const documents = await db
    .selectFrom('session_documents')
    .select('blob_key')
    .where('session_id', 'in', sessionIds)
    .execute();
  const frames = await db
    .selectFrom('liveness_challenges')
    .select('frame_blobs')
    .where('session_id', 'in', sessionIds)
    .execute();
  return [
    ...documents.flatMap((r) => [r.blob_key, captureOcrBlobKey(r.blob_key)]),
    ...frames.flatMap((r) => r.frame_blobs ?? []),
  ];
}

/** Drops the captures' readings (personal data); the rows stay, naming the uploaded sides. */
export async function eraseDocumentReadings(db: Db, sessionIds: string[]): Promise<void> {
  await db
    .updateTable('session_documents')
    .set({ reading_enc: null })
    .where('session_id', 'in', sessionIds)
    .execute();
}
