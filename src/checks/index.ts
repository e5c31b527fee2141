// What other capabilities use of the checks as a whole: the registry (every check's id, inputs,
// dependencies and result schema, and what is derived from them), the pipeline's queue names and
// job data, and the no-verdict answer of the spoof checks. Each check has its own index.ts too.

export { PROVIDER } from './check.ts';
export {
  CHECK_INPUTS,
  type CheckDefinition,
  type CheckInput,
  type CheckInputValues,
  type CheckRunArgs,
  type CheckRunFn,
  type CheckRunOutput,
  type CheckRunsIn,
  defineCheck,
  type WaitedResult,
} from './check-definition.ts';
export {
  CHECK_JOB_OPTIONS,
  type CheckJobData,
  checkQueue,
  DECISION_QUEUE,
  PIPELINE_QUEUES,
} from './check-queues.ts';
export {
  CHECK_IDS,
  CHECKS,
  type CheckDefinitionOf,
  type CheckId,
  type CheckResultOf,
  type CheckResults,
  CheckResultsSchema,
  checkDefinition,
  checkRegistryProblems,
  checkResultsProperties,
  checksForMethod,
  type InputsOf,
  type WaitsForOf,
} from './check-registry.ts';
export { notRunnableByDefinition, runByDefinition } from './run-definition.ts';
export { NO_VERDICT } from './spoof-cues.ts';
