// The verification pipeline: check jobs, the decision job, stored results; the owner of the check
// results, decisions, face descriptors and identity keys, which others read through it.
export { type CheckRun, RUNNERS } from './check-runners.ts';
export { identityKeyCandidates } from './identity-hashes.ts';
export {
  eraseCheckData,
  findDescriptor,
  insertDecision,
  latestDecisionReasons,
  listAutomaticDecisions,
  listOcrResultRows,
  sessionIdsWithDocumentNumber,
} from './pipeline-repository.ts';
export { type PipelineDetail, readPipelineDetail } from './read-pipeline-detail.ts';
export { requestReprocess } from './request-reprocess.ts';
export {
  advancePipeline,
  type CheckJobOutcome,
  type DecisionJobData,
  runCheckJob,
} from './run-check-job.ts';
export { type DecisionJobOutcome, runDecisionJob } from './run-decision-job.ts';
export { type PipelineWorkers, startPipelineWorkers } from './start-pipeline-workers.ts';
export { descriptorContext, readStoredResult, resultContext } from './stored-results.ts';
export { warmUpCheckModels } from './warm-up.ts';
