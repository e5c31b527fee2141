// The shape every background check has (style.md: checks are plain functions behind a small
// interface, so a test can run one on a fixture without a server).

/** The check names are the keys of `results` (interface §2.9) and the reprocess queue names (design.md). */
export const CHECK_IDS = [
  'ocr',
  'documentSpoofCheck',
  'selfieSpoofCheck',
  'faceMatch',
  'fraudSignalAnalysis',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface Check<Input, Result> {
  readonly id: CheckId;
  /** Bumped whenever the check's logic, model or thresholds change, and stored with each result. */
  readonly version: string;
  run(input: Input): Promise<Result>;
}

/** Every result records who produced it (interface §2.6 and §2.9: provider, model). */
export const PROVIDER = 'mimoto';
