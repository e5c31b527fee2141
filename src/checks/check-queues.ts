// pg-boss queue names of the pipeline: one per check (design.md "Reprocess queues") plus the decision.
import { CHECK_IDS, type CheckId } from './check.ts';

export const checkQueue = (id: CheckId) => `check.${id}`;
export const DECISION_QUEUE = 'decision';
export const PIPELINE_QUEUES: readonly string[] = [...CHECK_IDS.map(checkQueue), DECISION_QUEUE];

/** What a check job carries: enough to find its inputs, nothing personal. */
export interface CheckJobData {
  sessionId: string;
  tenantId: string;
  /** Why it runs again, when it was asked for through reprocess. */
  reprocessReason?: string;
  /** The pipeline generation the job belongs to (reprocess bumps it; absent = 0, the submission). */
  generation?: number;
}

/** Transient failures retry with backoff (issue 6 item 1). */
export const CHECK_JOB_OPTIONS = {
  retryLimit: 5,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: 300,
} as const;
