// The verification pipeline: check jobs, the decision job, stored results.
export { type CheckRun, RUNNERS } from './check-runners.ts';
export { identityKeyCandidates } from './identity-hashes.ts';
export { findDescriptor, insertDecision } from './pipeline-repository.ts';
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
