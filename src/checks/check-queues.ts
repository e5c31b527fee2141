// pg-boss queue names of the pipeline: one per check (docs/decisions.md "Reprocess queues") plus the decision.
import { JOB_LEASE_SECONDS } from '../platform/jobs/job-lease.ts';
import { CHECK_IDS, type CheckId } from './check-registry.ts';

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

/**
 * Transient failures retry with backoff. The expiry is a lease the running worker renews
 * (platform/jobs/job-lease.ts): a killed worker's job is retried within a minute.
 */
export const CHECK_JOB_OPTIONS = {
  retryLimit: 5,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: JOB_LEASE_SECONDS,
} as const;
