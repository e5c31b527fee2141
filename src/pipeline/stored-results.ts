// Stored results: the interface object (§2.6 / §2.9, exactly what GET detail and the webhook show)
// plus the numbers behind it (extras, never sent), encrypted together (OCR carries personal data).
import type { CheckId } from '../checks/index.ts';
import { decryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import { type CheckResultRow, findCheckResult } from './pipeline-repository.ts';

export interface ResultEnvelope<R = Record<string, unknown>, E = Record<string, unknown>> {
  result: R;
  extras?: E;
}

export const resultContext = (sessionId: string, checkId: string) =>
  `check_results.result_enc:${sessionId}:${checkId}`;
export const descriptorContext = (sessionId: string, source: string) =>
  `session_face_descriptors.descriptor_enc:${sessionId}:${source}`;

export function openEnvelope<R, E>(
  platform: Pick<Platform, 'keyring'>,
  row: CheckResultRow,
): ResultEnvelope<R, E> {
  return decryptJson<ResultEnvelope<R, E>>(
    platform.keyring,
    row.result_enc,
    resultContext(row.session_id, row.check_id),
  );
}

export async function readStoredResult<R = Record<string, unknown>, E = Record<string, unknown>>(
  platform: Platform,
  sessionId: string,
  checkId: CheckId,
): Promise<{ row: CheckResultRow; envelope: ResultEnvelope<R, E> } | null> {
  const row = await findCheckResult(platform.database.db, sessionId, checkId);
  if (!row || row.status === 'failed') return null;
  return { row, envelope: openEnvelope<R, E>(platform, row) };
}
