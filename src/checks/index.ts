// What other capabilities use of the checks as a whole: check ids, the pipeline's queue names and
// job data, and the no-verdict answer of the spoof checks. Each check has its own index.ts too.

export { CHECK_IDS, type CheckId, PROVIDER } from './check.ts';
export {
  CHECK_JOB_OPTIONS,
  type CheckJobData,
  checkQueue,
  DECISION_QUEUE,
  PIPELINE_QUEUES,
} from './check-queues.ts';
export { NO_VERDICT } from './spoof-cues.ts';
