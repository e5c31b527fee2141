// Calling a check's `run` (check-definition.ts) where no runner is written for it: the pipeline's
// generic runner and `mimoto inspect` both go through here, so both refuse the same checks and
// the same results.
import { Value } from '@sinclair/typebox/value';
import type { CheckDefinition, CheckRunArgs, CheckRunOutput } from './check-definition.ts';

/**
 * Why `definition` cannot be run by its `run` (no `run`, or it runs in the inference threads,
 * whose tasks are named in their own worker files), or null when it can.
 */
export function notRunnableByDefinition(definition: CheckDefinition): string | null {
  if (!definition.run)
    return `${definition.id} has neither a runner (check-runners.ts) nor run in its definition`;
  if (definition.runsIn !== 'eventLoop') {
    return `${definition.id} runs in the inference threads: it needs a runner in check-runners.ts`;
  }
  return null;
}

/** `run` on `args`, its result held to the check's result schema. */
export async function runByDefinition(
  definition: CheckDefinition,
  args: CheckRunArgs,
): Promise<CheckRunOutput> {
  const refused = notRunnableByDefinition(definition);
  if (refused !== null || !definition.run) throw new Error(refused ?? `${definition.id} has no run`);
  const output = await definition.run(args);
  if (!Value.Check(definition.resultSchema, output.result)) {
    const first = Value.Errors(definition.resultSchema, output.result).First();
    throw new Error(
      `${definition.id} returned a result its schema refuses: ${first?.path} ${first?.message}`,
    );
  }
  return output;
}
