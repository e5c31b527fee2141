// SQL of the pipeline (style.md: SQL only in repositories): stored check results, decisions (the
// automatic ones and, through insertDecision, a reviewer's), face descriptors and identity keys for
// cross-session fraud signals. The session's pipeline state is the sessions' row (sessions/).

import type { Expression, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../platform/db/open-database.ts';
import type { CheckResultsTable, DecisionsTable } from '../platform/db/schema.ts';
import { sessionIdsFromIp } from '../sessions/index.ts';

export type CheckResultRow = Selectable<CheckResultsTable>;
export type DecisionRow = Selectable<DecisionsTable>;

export interface StoredCheckResult {
  sessionId: string;
  checkId: string;
  generation: number;
  status: 'success' | 'unavailable' | 'failed';
  resultEnc: string;
  provider: string;
  model: string;
  version: string;
  inputHashes: Record<string, string>;
  durationMs: number;
  error: string | null;
  completedAt: Date;
}

/**
 * Inserts the result, or replaces one of an EARLIER generation (a reprocess). A result of the same
 * generation is kept: a job run twice stores once. Returns false when nothing was written.
 */
export async function saveCheckResult(db: Db, r: StoredCheckResult): Promise<boolean> {
  const values = {
    session_id: r.sessionId,
    check_id: r.checkId,
    generation: r.generation,
    status: r.status,
    result_enc: r.resultEnc,
    provider: r.provider,
    model: r.model,
    version: r.version,
    input_hashes: JSON.stringify(r.inputHashes),
    duration_ms: Math.round(r.durationMs),
    error: r.error,
    completed_at: r.completedAt,
  };
  const written = await db
    .insertInto('check_results')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'check_id'])
        .doUpdateSet({
          generation: r.generation,
          status: r.status,
          result_enc: r.resultEnc,
          provider: r.provider,
          model: r.model,
          version: r.version,
          input_hashes: values.input_hashes,
          duration_ms: values.duration_ms,
          error: r.error,
          completed_at: r.completedAt,
        })
        .where('check_results.generation', '<', r.generation),
    )
    .returning('check_id')
    .executeTakeFirst();
  return written !== undefined;
}

export async function listCheckResults(db: Db, sessionId: string): Promise<CheckResultRow[]> {
  return db.selectFrom('check_results').selectAll().where('session_id', '=', sessionId).execute();
}

/** The stored OCR results (encrypted envelopes) of these sessions, for the identity search. */
export async function listOcrResultRows(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('check_results')
    .select(['session_id', 'check_id', 'result_enc'])
    .where('session_id', 'in', sessionIds)
    .where('check_id', '=', 'ocr')
    .where('status', '<>', 'failed')
    .execute();
}

export async function findCheckResult(db: Db, sessionId: string, checkId: string) {
  return db
    .selectFrom('check_results')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('check_id', '=', checkId)
    .executeTakeFirst();
}

export async function findAutomaticDecision(db: Db, sessionId: string, generation: number) {
  return db
    .selectFrom('decisions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('generation', '=', generation)
    .where('kind', '=', 'automatic')
    .executeTakeFirst();
}

/** The session's latest decision, automatic or a reviewer's. */
export async function findLatestDecision(db: Db, sessionId: string): Promise<DecisionRow | undefined> {
  return db
    .selectFrom('decisions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('decided_at', 'desc')
    .orderBy('generation', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function hasReviewDecision(db: Db, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('decisions')
    .select('id')
    .where('session_id', '=', sessionId)
    .where('kind', '=', 'review')
    .executeTakeFirst();
  return row !== undefined;
}

/** The automatic decisions of a session, newest first. */
export async function listAutomaticDecisions(db: Db, sessionId: string) {
  return db
    .selectFrom('decisions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', 'automatic')
    .orderBy('generation', 'desc')
    .execute();
}

/** The reason of each session's latest decision (automatic or a reviewer's). */
export async function latestDecisionReasons(db: Db, sessionIds: string[]) {
  if (sessionIds.length === 0) return new Map<string, { reason: string; kind: string }>();
  const rows = await db
    .selectFrom('decisions')
    .select(['session_id', 'reason', 'kind', 'decided_at', 'generation'])
    .where('session_id', 'in', sessionIds)
    .orderBy('decided_at', 'asc')
    .orderBy('generation', 'asc')
    .execute();
  return new Map(rows.map((r) => [r.session_id, { reason: r.reason, kind: r.kind }]));
}

export async function insertDecision(
  db: Db,
  d: {
    id: string;
    sessionId: string;
    tenantId: string;
    generation: number;
    status: 'approved' | 'rejected' | 'pending_review';
    reason: string;
    metadata: object;
    thresholds: object;
    preRegisteredInfoMatch: object | null;
    userInputMatch: object | null;
    decidedAt: Date;
    /** A reviewer's decision (src/review) is kind 'review'; the pipeline's are automatic. */
    kind?: 'automatic' | 'review';
  },
): Promise<void> {
  await db
    .insertInto('decisions')
    .values({
      id: d.id,
      session_id: d.sessionId,
      tenant_id: d.tenantId,
      generation: d.generation,
      kind: d.kind ?? 'automatic',
      status: d.status,
      reason: d.reason,
      metadata: JSON.stringify(d.metadata),
      thresholds: JSON.stringify(d.thresholds),
      pre_registered_info_match: d.preRegisteredInfoMatch ? JSON.stringify(d.preRegisteredInfoMatch) : null,
      user_input_match: d.userInputMatch ? JSON.stringify(d.userInputMatch) : null,
      decided_at: d.decidedAt,
    })
    .execute();
}

export async function saveFaceDescriptor(
  db: Db,
  row: {
    sessionId: string;
    tenantId: string;
    source: 'document' | 'selfie';
    descriptorEnc: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('session_face_descriptors')
    .values({
      session_id: row.sessionId,
      tenant_id: row.tenantId,
      source: row.source,
      descriptor_enc: row.descriptorEnc,
      created_at: row.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'source'])
        .doUpdateSet({ descriptor_enc: row.descriptorEnc, created_at: row.now }),
    )
    .execute();
}

/** Recent descriptors of the tenant's other sessions (bounded: the comparison is in memory). */
export async function listTenantDescriptors(
  db: Db,
  tenantId: string,
  source: 'document' | 'selfie',
  excludeSessionId: string,
  since: Date,
  limit: number,
) {
  return db
    .selectFrom('session_face_descriptors')
    .select(['session_id', 'descriptor_enc'])
    .where('tenant_id', '=', tenantId)
    .where('source', '=', source)
    .where('session_id', '<>', excludeSessionId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function findDescriptor(db: Db, sessionId: string, source: 'document' | 'selfie') {
  return db
    .selectFrom('session_face_descriptors')
    .select('descriptor_enc')
    .where('session_id', '=', sessionId)
    .where('source', '=', source)
    .executeTakeFirst();
}

export async function saveIdentityKeys(
  db: Db,
  row: {
    sessionId: string;
    tenantId: string;
    documentNumberHash: string | null;
    identityHash: string | null;
    /** The keyring key both hashes are keyed with. */
    hashKeyId: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('session_identity_keys')
    .values({
      session_id: row.sessionId,
      tenant_id: row.tenantId,
      document_number_hash: row.documentNumberHash,
      identity_hash: row.identityHash,
      hash_key_id: row.hashKeyId,
      created_at: row.now,
    })
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet({
        document_number_hash: row.documentNumberHash,
        identity_hash: row.identityHash,
        hash_key_id: row.hashKeyId,
        created_at: row.now,
      }),
    )
    .execute();
}

/** Rows still holding a plain digest (written before migration 0008). */
export async function listUnkeyedIdentityKeys(db: Db, limit: number) {
  return db
    .selectFrom('session_identity_keys')
    .select(['session_id', 'document_number_hash', 'identity_hash'])
    .where('hash_key_id', 'is', null)
    .orderBy('session_id')
    .limit(limit)
    .execute();
}

/** Replaces plain digests by keyed hashes, only where the row is still unkeyed; returns rows changed. */
export async function rekeyIdentityKeys(
  db: Db,
  keyId: string,
  rows: { sessionId: string; documentNumberHash: string | null; identityHash: string | null }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
    UPDATE session_identity_keys k
    SET document_number_hash = v.document_number_hash, identity_hash = v.identity_hash, hash_key_id = ${keyId}
    FROM unnest(${rows.map((r) => r.sessionId)}::text[], ${rows.map((r) => r.documentNumberHash)}::text[],
                ${rows.map((r) => r.identityHash)}::text[]) AS v(session_id, document_number_hash, identity_hash)
    WHERE k.session_id = v.session_id AND k.hash_key_id IS NULL`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function listIdentityKeys(db: Db, tenantId: string, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('session_identity_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('session_id', 'in', sessionIds)
    .execute();
}

/** `documentNumberHashes`: the number's hash under every key of the keyring. */
export async function listSessionsWithDocumentNumber(
  db: Db,
  tenantId: string,
  documentNumberHashes: readonly string[],
  excludeSessionId: string,
) {
  if (documentNumberHashes.length === 0) return [];
  return db
    .selectFrom('session_identity_keys')
    .select('session_id')
    .where('tenant_id', '=', tenantId)
    .where('document_number_hash', 'in', documentNumberHashes)
    .where('session_id', '<>', excludeSessionId)
    .limit(50)
    .execute();
}

/**
 * Distinct identities among the tenant's sessions from `ip` created in [from, to] whose fraud
 * check has stored identity keys; a session without an identity hash counts as one of its own.
 */
export async function countIdentitiesFromIp(db: Db, tenantId: string, ip: string, from: Date, to: Date) {
  const row = await db
    .selectFrom('session_identity_keys as k')
    .select(sql<number>`count(distinct coalesce(k.identity_hash, k.session_id))::int`.as('n'))
    .where('k.session_id', 'in', sessionIdsFromIp(db, tenantId, ip, from, to))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The ids of the tenant's sessions whose document number has one of these keyed hashes, as a
 * subquery for the console's session search (`documentNumberHashes`: under every key of the keyring).
 */
export function sessionIdsWithDocumentNumber(
  db: Db,
  tenantId: string,
  documentNumberHashes: readonly string[],
): Expression<string> {
  return db
    .selectFrom('session_identity_keys')
    .select('session_id')
    .where('tenant_id', '=', tenantId)
    .where('document_number_hash', 'in', documentNumberHashes.length > 0 ? [...documentNumberHashes] : [''])
    .$asScalar();
}

/**
 * Deletes the rows that only hold the sessions' personal data: check results with the OCR payload,
 * face descriptors, identity keys (the erasure of a session's data).
 */
export async function eraseCheckData(db: Db, sessionIds: string[]): Promise<void> {
  await db.deleteFrom('check_results').where('session_id', 'in', sessionIds).execute();
  await db.deleteFrom('session_face_descriptors').where('session_id', 'in', sessionIds).execute();
  await db.deleteFrom('session_identity_keys').where('session_id', 'in', sessionIds).execute();
}
