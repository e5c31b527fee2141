// What the check registry (check-registry.ts) holds of one check: everything the rest of mimoto
// derives from it — the key of `results`, the queue, the result's schema, when it may run — and
// nothing that runs, so the API, the console and the CLI read it without loading a model. A check
// may add `run` (CheckRunFn below), which the pipeline calls when it has no runner of its own for
// it: `run` then imports its check's logic lazily (`await import('./….check.ts')`) if that is heavy.
import type { Static, TSchema } from '@sinclair/typebox';
import type { VerificationMethod } from '../domain/index.ts';

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
  /** The IC chip's files and Active Authentication answer a reader handed in, with the session's nonce. */
  'chipReading',
] as const;
export type CheckInput = (typeof CHECK_INPUTS)[number];

/**
 * Where a check's heavy work runs: `thread` in the inference threads (src/inference), so the
 * worker's event loop stays free; `eventLoop` for a check cheap enough to run on it.
 */
export type CheckRunsIn = 'thread' | 'eventLoop';

/**
 * What `run` is given for each input it declares, loaded by the pipeline
 * (src/pipeline/check-runners.ts, whose loaders the compiler holds to these types). `tenantHistory`
 * is not here: what it looks up depends on other checks' results, so a check reading it has a runner.
 */
export interface CheckInputValues {
  documentImages: { front: Buffer; back?: Buffer | undefined; tilted?: Buffer | undefined };
  documentType: string | null;
  referenceImage: Buffer | null;
  livenessFrames: {
    frames: { image: Buffer; t: number }[];
    liveness: {
      passed: boolean;
      confidence: number;
      failures: string[];
      maxFaceDistance: null;
      /** The live check's screen-light reading (null: not measured). */
      screenLight: { correlation: number | null } | null;
      /** The attempt's camera injection signals (liveness/injection-signals.ts). */
      injectionSignals: string[];
    };
  };
  /** As typed and stored (interface §2.3): a field left empty is absent. */
  userInput: Readonly<Record<string, string | undefined>> | null;
  /** The tenant's decision thresholds, by name (src/decision/thresholds.ts). */
  thresholds: Readonly<Record<string, number | string>>;
  /** As the reader handed it (src/hosted-flow/chip-reader.ts), with the nonce it answered. */
  chipReading: {
    sod: Buffer;
    dataGroups: Partial<Record<1 | 2 | 14 | 15, Buffer>>;
    activeAuthenticationSignature?: Buffer;
    nonce: Buffer;
  };
}

/** The stored result of a check waited for: its `results` entry and what was stored beside it. */
export interface WaitedResult {
  result: Record<string, unknown>;
  extras?: Record<string, unknown> | undefined;
}

export interface CheckRunArgs<I extends CheckInput = CheckInput, W extends string = string> {
  /** The inputs the check declares, loaded. */
  inputs: { readonly [K in I]: K extends keyof CheckInputValues ? CheckInputValues[K] : never };
  /** The stored results of the checks it waits for. */
  results: { readonly [K in W]: WaitedResult };
  /** The pipeline's clock. */
  now: Date;
}

export interface CheckRunOutput<R = unknown> {
  /** The entry of `results`; the pipeline refuses one its resultSchema does not accept. */
  result: R;
  /** Stored beside the result, read by the checks that wait for this one, never sent. */
  extras?: Record<string, unknown>;
  /** Default: mimoto. */
  provider?: string;
  /** Default: the check's id. */
  model?: string;
}

export type CheckRunFn<I extends CheckInput = CheckInput, W extends string = string, R = unknown> = (
  args: CheckRunArgs<I, W>,
) => Promise<CheckRunOutput<R>>;

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
  /**
   * The verification methods the check applies to: a session runs only the checks of the method
   * its person used (an image check is absent from a chip session, not faked), and a check waits
   * only for those of its waits that apply (checksForMethod in check-registry.ts). Absent: image.
   */
  readonly methods?: readonly VerificationMethod[];
  /**
   * Runs the check on its declared inputs and waited-for results; the pipeline's generic runner
   * calls it for a check with `runsIn: 'eventLoop'` that has no runner in check-runners.ts. A check
   * running in the threads, or reading `tenantHistory`, needs that runner (docs/checks.md).
   */
  run?(args: CheckRunArgs): Promise<CheckRunOutput>;
}

/** What defineCheck is given and returns, `run` aside. */
interface Declared<
  Id extends string,
  I extends readonly CheckInput[],
  W extends readonly string[],
  S extends TSchema,
  Where extends CheckRunsIn,
> {
  readonly id: Id;
  readonly version: string;
  readonly inputs: I;
  readonly waitsFor: W;
  readonly resultSchema: S;
  readonly runsIn: Where;
  readonly methods?: readonly VerificationMethod[];
}

/**
 * Declares a check, keeping the literal types of its id, inputs, waits and place (the registry's
 * CheckId is the union of the ids), and typing `run`'s arguments by the inputs and waits declared.
 */
export function defineCheck<
  const Id extends string,
  const I extends readonly CheckInput[],
  const W extends readonly string[],
  S extends TSchema,
  const Where extends CheckRunsIn,
>(
  definition: Declared<Id, I, W, S, Where> & { run: CheckRunFn<I[number], W[number], Static<S>> },
): Declared<Id, I, W, S, Where> & { readonly run: CheckRunFn<I[number], W[number], Static<S>> };
export function defineCheck<
  const Id extends string,
  const I extends readonly CheckInput[],
  const W extends readonly string[],
  S extends TSchema,
  const Where extends CheckRunsIn,
>(
  definition: Declared<Id, I, W, S, Where> & { run?: undefined },
): Declared<Id, I, W, S, Where> & { readonly run: undefined };
export function defineCheck(definition: CheckDefinition): CheckDefinition {
  // Without `run` the property is absent, which reads as the `undefined` the type says.
  return Object.freeze(definition);
}
