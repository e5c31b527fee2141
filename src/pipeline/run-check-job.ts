// One check job: load the inputs, run the check, store the result keyed by
// (session, check) — idempotent: a result of this generation already stored means the job ran
// before (a retry after a crash, a duplicate) and it does not run again — then enqueue what became
// runnable: a check once the checks its definition waits for exist (src/checks/check-registry.ts),
// the decision once every registered check's result does.
import {
  CHECK_JOB_OPTIONS,
  type CheckId,
  type CheckJobData,
  checkDefinition,
  checkQueue,
  checksForMethod,
  DECISION_QUEUE,
} from '../checks/index.ts';
import { resolveThresholds } from '../decision/index.ts';
import { encryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import { failSession, findSession, type SessionRow } from '../sessions/index.ts';
import { findTenantSettings } from '../tenants/index.ts';
import { CHECK_DEPENDENCIES, type CheckRun, DependencyNotReady, runCheck } from './check-runners.ts';
import { type CheckResultRow, listCheckResults, saveCheckResult } from './pipeline-repository.ts';
import { resultContext } from './stored-results.ts';

export interface DecisionJobData {
  sessionId: string;
  tenantId: string;
  generation: number;
}

export type CheckJobOutcome = 'stored' | 'already_stored' | 'waiting' | 'skipped';

/** Does `checkId` have a result that counts for the session's current generation? */
export function isCurrent(session: SessionRow, checkId: CheckId, row: CheckResultRow | undefined): boolean {
  if (!row || row.status === 'failed') return false;
  const requested = session.pipeline_checks === null || session.pipeline_checks.includes(checkId);
  return requested ? row.generation >= session.pipeline_generation : true;
}

/** The checks of the session's method (checksForMethod): the ones it runs, waits for and decides on. */
export const sessionChecks = (session: Pick<SessionRow, 'verification_method'>): readonly CheckId[] =>
  checksForMethod(session.verification_method);

/** What `checkId` waits for in this session: its definition's waits that apply to the session's method. */
export function sessionDependencies(session: Pick<SessionRow, 'verification_method'>, checkId: CheckId) {
  const applies = sessionChecks(session);
  return CHECK_DEPENDENCIES[checkId].filter((id) => applies.includes(id));
}

/** isCurrent for a check id, looked up among the session's stored results. */
const currentIn =
  (session: SessionRow, results: readonly CheckResultRow[]) =>
  (id: CheckId): boolean =>
    isCurrent(
      session,
      id,
      results.find((r) => r.check_id === id),
    );

export async function runCheckJob(
  platform: Platform,
  checkId: CheckId,
  data: CheckJobData,
): Promise<CheckJobOutcome> {
  const db = platform.database.db;
  const session = await findSession(db, data.sessionId);
  if (!session || session.submitted_at === null) return 'skipped';
  // The session already failed permanently: its remaining submission jobs need not spend CPU
  // (a reprocess — which always carries reprocessReason — still runs).
  if (session.status === 'failed' && data.reprocessReason === undefined) return 'skipped';
  // A check of another method than the session's (a reprocess naming it): nothing to run.
  if (!sessionChecks(session).includes(checkId)) return 'skipped';
  const generation = data.generation ?? 0;
  const results = await listCheckResults(db, session.id);
  const existing = results.find((r) => r.check_id === checkId);
  if (existing && existing.status !== 'failed' && existing.generation >= generation) {
    await advancePipeline(platform, session.id);
    return 'already_stored';
  }
  // A check that reads other checks' results waits until they count for this generation: on a
  // reprocess naming ocr and documentSpoofCheck, the old OCR result is still stored while the new
  // one is being made. advancePipeline enqueues the check again once they are current.
  if (!sessionDependencies(session, checkId).every(currentIn(session, results))) return 'waiting';
  const thresholds = resolveThresholds(await findTenantSettings(db, session.tenant_id));
  const started = performance.now();
  let run: CheckRun;
  try {
    run = await runCheck(checkId, platform, session, thresholds);
  } catch (error) {
    if (error instanceof DependencyNotReady) return 'waiting';
    throw error;
  }
  await saveCheckResult(db, {
    sessionId: session.id,
    checkId,
    generation,
    status: run.status,
    resultEnc: encryptJson(platform.keyring, run.envelope, resultContext(session.id, checkId)),
    provider: run.provider,
    model: run.model,
    // A check with no implementation in this build says so with version 0 (check-runners.ts).
    version: run.status === 'unavailable' ? '0' : checkDefinition(checkId).version,
    inputHashes: run.inputHashes,
    durationMs: performance.now() - started,
    error: null,
    completedAt: platform.now(),
  });
  await advancePipeline(platform, session.id);
  return 'stored';
}

/**
 * Enqueues what the stored results allow. Duplicates are harmless (the decision is taken once per
 * generation under the session lock); the singleton key keeps them rare.
 */
export async function advancePipeline(platform: Platform, sessionId: string): Promise<void> {
  const db = platform.database.db;
  const session = await findSession(db, sessionId);
  if (!session) return;
  const results = await listCheckResults(db, sessionId);
  const current = currentIn(session, results);
  const key = `${sessionId}:${session.pipeline_generation}`;
  const checks = sessionChecks(session);
  if (checks.every(current)) {
    const data: DecisionJobData = {
      sessionId,
      tenantId: session.tenant_id,
      generation: session.pipeline_generation,
    };
    await platform.jobs.send(DECISION_QUEUE, data, {
      ...CHECK_JOB_OPTIONS,
      singletonKey: key,
      singletonSeconds: 30,
    });
    return;
  }
  for (const checkId of checks) {
    const dependencies = sessionDependencies(session, checkId);
    // A check that waits for nothing was enqueued with the submission (or the reprocess).
    if (dependencies.length === 0 || current(checkId) || !dependencies.every(current)) continue;
    const data: CheckJobData = {
      sessionId,
      tenantId: session.tenant_id,
      generation: session.pipeline_generation,
    };
    await platform.jobs.send(checkQueue(checkId), data, {
      ...CHECK_JOB_OPTIONS,
      singletonKey: key,
      singletonSeconds: 30,
    });
  }
}

/** Retries exhausted or a permanent error: the session fails with the cause stored (docs/decisions.md). */
export async function recordPermanentFailure(
  platform: Platform,
  checkId: CheckId | 'decision',
  sessionId: string,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  await failSession(platform.database.db, sessionId, `${checkId} failed: ${message}`, platform.now());
}
