// Reprocess (interface §4.3; docs/decisions.md "Reprocess queues"): inside the caller's transaction, start
// the session's next pipeline generation naming the checks, and enqueue one job per check. The
// named checks run again (their results of an earlier generation are replaced), then the decision
// is taken again. A reviewer's decision is final: DecisionFinal (409).
import type { CheckId } from '../checks/index.ts';
import { CHECK_JOB_OPTIONS, type CheckJobData, checkQueue } from '../checks/index.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import { enqueueInTransaction } from '../platform/jobs/job-queue.ts';
import type { Platform } from '../platform/platform.ts';
import { startGeneration } from '../sessions/index.ts';
import { hasReviewDecision } from './pipeline-repository.ts';

export async function requestReprocess(
  platform: Platform,
  trx: Db,
  session: { id: string; tenant_id: string },
  queues: readonly CheckId[],
  reason: string,
  requestedAt: Date = platform.now(),
): Promise<number> {
  if (await hasReviewDecision(trx, session.id)) throw new AppError('DecisionFinal');
  const generation = await startGeneration(trx, session.id, queues, requestedAt, reason);
  for (const id of queues) {
    const data: CheckJobData = {
      sessionId: session.id,
      tenantId: session.tenant_id,
      reprocessReason: reason,
      generation,
    };
    await enqueueInTransaction(platform.jobs, trx, checkQueue(id), data, CHECK_JOB_OPTIONS);
  }
  return generation;
}
