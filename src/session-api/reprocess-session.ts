// POST /v1/verification-sessions/{sessionId}/reprocess (interface §4.3; docs/decisions.md "Reprocess queues").
import type { ApiCaller } from '../api-keys/index.ts';
import { type CheckId, checksForMethod } from '../checks/index.ts';
import { requestReprocess } from '../pipeline/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import type { ReprocessBody, ReprocessResult } from '../sessions/index.ts';
import { loadCallerSession } from '../sessions/index.ts';

export async function reprocessSession(
  platform: Platform,
  caller: ApiCaller,
  sessionId: string,
  body: ReprocessBody,
): Promise<ReprocessResult> {
  let queues: readonly CheckId[] = [];
  const now = platform.now();
  const queuedAt = now.toISOString();
  await platform.database.db.transaction().execute(async (trx) => {
    const session = await loadCallerSession(trx, caller, sessionId);
    if (!session.submitted_at) throw new AppError('SessionNotSubmitted');
    // The retention sweep deleted the images the checks would read (retention-sweep.ts).
    if (session.data_erased_at) throw new AppError('SessionDataErased');
    // Only the checks of the method the person used (a chip session has no OCR to run again).
    const applies = checksForMethod(session.verification_method);
    const named = body.queues?.length ? body.queues : applies;
    const foreign = named.filter((id) => !applies.includes(id));
    if (foreign.length > 0) {
      throw new AppError(
        'ValidationFailed',
        `${foreign.join(', ')} does not apply to this session's verification method`,
        foreign.map((id) => ({ path: '/queues', message: `${id} does not apply to this session` })),
      );
    }
    queues = named;
    // The jobs exist only if this transaction commits, so a failed request leaves nothing queued;
    // a reviewer's decision is final (DecisionFinal, docs/decisions.md); the decision runs again afterwards.
    await requestReprocess(platform, trx, session, queues, body.reason ?? '', now);
  });
  return { sessionId, queuedAt, queued: queues.map((queue) => ({ queue, queuedAt })) };
}
