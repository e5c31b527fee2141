// The erasure of sessions' personal data (redact on the tenant's request, the retention sweep when
// the tenant's period ends), asking each table's owner in the caller's transaction: the hosted
// flow's captures, the pipeline's results, webhooks' bodies, the session row. Rows that only hold
// personal data are deleted; the session row, statuses, decisions and audit trail stay. Blob keys
// stay too: they name no one, the detail still says which images were uploaded, and their URLs
// answer 404 once the bytes are gone.
import { eraseChipReadings, eraseDocumentReadings, listFlowBlobKeys } from '../hosted-flow/index.ts';
import { eraseCheckData } from '../pipeline/index.ts';
import type { Db } from '../platform/db/open-database.ts';
import { listLivenessReferenceBlobs, markSessionsErased } from '../sessions/index.ts';
import { deleteSessionEvents } from '../webhooks/index.ts';

/** Every blob key the sessions' rows name: document sides, live-check frames, reference image. */
export async function listSessionBlobKeys(db: Db, sessionIds: string[]): Promise<string[]> {
  return [...(await listFlowBlobKeys(db, sessionIds)), ...(await listLivenessReferenceBlobs(db, sessionIds))];
}

/** Removes the sessions' personal data and stamps them erased. */
export async function eraseSessionData(db: Db, sessionIds: string[], now: Date): Promise<void> {
  await eraseCheckData(db, sessionIds);
  await eraseDocumentReadings(db, sessionIds);
  await eraseChipReadings(db, sessionIds);
  await deleteSessionEvents(db, sessionIds);
  await markSessionsErased(db, sessionIds, now);
}
