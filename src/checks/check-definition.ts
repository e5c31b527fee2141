// What the check registry (check-registry.ts) holds of one check: everything the rest of mimoto
// derives from it — the key of `results`, the queue, the result's schema, when it may run — and
// nothing that runs, so the API, the console and the CLI read it without loading a model.
import type { TSchema } from '@sinclair/typebox';

/**
 * What a check can be given, loaded by the pipeline from the session's stored inputs (interface §1)
 * (src/pipeline/check-runners.ts hands a runner only the loaders its check declares).
 */
export const CHECK_INPUTS = [
  /** The document's photos: front, and back and the tilted photo when they were taken. */
  'documentImages',
  /** The document type the user chose (interface §2.4). */
  'documentType',
  /** The live check's reference image (interface §2.5); absent when every attempt failed. */
  'referenceImage',
  /** The live check's frames and outcome (interface §2.5). */
  'livenessFrames',
  /** What the user typed (interface §2.3). */
  'userInput',
  /** The tenant's decision thresholds (tenant settings). */
  'thresholds',
  /** The tenant's other sessions, blacklist and identity keys (repeat use, blacklist matches). */
  'tenantHistory',
] as const;
export type CheckInput = (typeof CHECK_INPUTS)[number];

/**
 * Where a check's heavy work runs: `thread` in the inference threads (src/inference), so the
 * worker's event loop stays free; `eventLoop` for a check cheap enough to run on it.
 */
export type CheckRunsIn = 'thread' | 'eventLoop';

export interface CheckDefinition<Id extends string = string> {
  /** The key of `results` (interface §2.9), the reprocess queue name and the job queue's suffix. */
  readonly id: Id;
  /** Bumped whenever the check's logic, model or thresholds change, and stored with each result. */
  readonly version: string;
  readonly inputs: readonly CheckInput[];
  /** Checks whose results this one reads: it runs once they are stored for the generation. */
  readonly waitsFor: readonly string[];
  /** The result object as sent in `results` (closed: the webhook payload embeds it). */
  readonly resultSchema: TSchema;
  readonly runsIn: CheckRunsIn;
}

/** Declares a check, keeping its id's literal type (the registry's CheckId is their union). */
export const defineCheck = <const D extends CheckDefinition>(definition: D): D => Object.freeze(definition);
