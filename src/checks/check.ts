// The shape every background check has (style.md: checks are plain functions behind a small
// interface, so a test can run one on a fixture without a server).

import type { CheckId } from '../domain/index.ts';

// The vocabulary of checks is the domain's; named here too for the checks' own code.
export { CHECK_IDS, type CheckId, PROVIDER } from '../domain/index.ts';

export interface Check<Input, Result> {
  readonly id: CheckId;
  /** Bumped whenever the check's logic, model or thresholds change, and stored with each result. */
  readonly version: string;
  run(input: Input): Promise<Result>;
}
