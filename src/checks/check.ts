// The shape every background check has (style.md: checks are plain functions behind a small
// interface, so a test can run one on a fixture without a server).

import type { CheckId } from './check-registry.ts';

export { PROVIDER } from '../domain/index.ts';
export type { CheckId } from './check-registry.ts';

export interface Check<Input, Result> {
  readonly id: CheckId;
  /** The version its definition declares (check-definition.ts), stored with each result. */
  readonly version: string;
  run(input: Input): Promise<Result>;
}
