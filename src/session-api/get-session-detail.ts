// GET /v1/verification-sessions/{sessionId} (interface §4.2, §2.1). A field with no value yet is
// left out rather than null: §2.1 types them as strings and objects and §2.11 leaves presence open
// (the OpenAPI document marks them optional).
import type { ApiCaller } from '../api-keys/index.ts';
import { offeredMethods, readFlowDetail } from '../hosted-flow/index.ts';
import { readPipelineDetail } from '../pipeline/index.ts';
import { decryptJson, decryptText } from '../platform/crypto/encryption.ts';
import { inTransaction } from '../platform/db/in-transaction.ts';
import type { Platform } from '../platform/platform.ts';
import type { PreRegisteredInfo, SessionDetail } from '../sessions/index.ts';
import {
  effectiveStatus,
  loadCallerSession,
  preRegisteredInfoContext,
  verificationUrlContext,
} from '../sessions/index.ts';
import { findTenant } from '../tenants/index.ts';

export async function getSessionDetail(
  platform: Platform,
  caller: ApiCaller,
  sessionId: string,
): Promise<SessionDetail> {
  // One snapshot: the decision job completes the session and stores its decision in one
  // transaction, and a reading taken across that commit showed the decision under a session
  // still 'liveness_success' (seen on PostgreSQL).
  const { session, flow, pipeline, methods } = await inTransaction(
    platform,
    async (tx) => {
      const session = await loadCallerSession(tx.database.db, caller, sessionId);
      const flow = await readFlowDetail(tx, session);
      const pipeline = session.submitted_at ? await readPipelineDetail(tx, session.id) : null;
      const tenant = await findTenant(tx.database.db, session.tenant_id);
      return { session, flow, pipeline, methods: offeredMethods(session, tenant?.settings ?? {}) };
    },
    { isolation: 'repeatable read' },
  );
  const { keyring } = platform;
  const preRegisteredInfo = session.pre_registered_info_enc
    ? decryptJson<PreRegisteredInfo>(
        keyring,
        session.pre_registered_info_enc,
        preRegisteredInfoContext(session.id),
      )
    : undefined;
  return {
    sessionId: session.id,
    status: effectiveStatus(session, platform.now()),
    callbackUrl: session.callback_url,
    verificationUrl: decryptText(keyring, session.verification_url_enc, verificationUrlContext(session.id)),
    verificationUrlExpiresAt: session.verification_url_expires_at.toISOString(),
    createdAt: session.created_at.toISOString(),
    updatedAt: session.updated_at.toISOString(),
    expiresAt: session.expires_at.toISOString(),
    ...(session.document_type ? { documentType: session.document_type } : {}),
    verificationMethods: methods,
    ...(session.verification_method ? { verificationMethod: session.verification_method } : {}),
    ...(preRegisteredInfo ? { preRegisteredInfo } : {}),
    ...(flow.userInput ? { userInput: flow.userInput } : {}),
    ...(flow.documents ? { documents: flow.documents } : {}),
    ...(flow.liveness ? { liveness: flow.liveness } : {}),
    ...(pipeline?.ocrResult ? { ocrResult: pipeline.ocrResult } : {}),
    // Interface §2.7: exists from submission on; decision and results once the pipeline stored them.
    ...(session.submitted_at
      ? {
          verification: {
            verificationId: session.id,
            status: session.verification_status ?? 'processing',
            createdAt: session.submitted_at.toISOString(),
            updatedAt: session.updated_at.toISOString(),
            ...(pipeline?.decision ? { decision: pipeline.decision } : {}),
            ...(pipeline?.results ? { results: pipeline.results } : {}),
            ...(pipeline?.preRegisteredInfoMatch
              ? { preRegisteredInfoMatch: pipeline.preRegisteredInfoMatch }
              : {}),
            ...(pipeline?.userInputMatch !== undefined ? { userInputMatch: pipeline.userInputMatch } : {}),
          },
        }
      : {}),
    ...(session.cancelled_at ? { cancelledAt: session.cancelled_at.toISOString() } : {}),
    ...(session.data_erased_at ? { dataErasedAt: session.data_erased_at.toISOString() } : {}),
  };
}
