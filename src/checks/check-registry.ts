// The check registry: every check mimoto runs, declared once (check-definition.ts), in the order
// of interface §2.9. The pipeline's queues and the order it runs them in, the decision's input,
// `results` in the session detail, the webhook payload and the OpenAPI document, the reprocess
// queue names and the console's check panels are derived from this list. A new check is its
// folder (with its definition.ts) and one line here (docs/checks.md "Adding a check").
import { type Static, type TObject, type TOptional, Type } from '@sinclair/typebox';
import { closed, type VerificationMethod } from '../domain/index.ts';
import type { CheckDefinition } from './check-definition.ts';
import { documentSpoofDefinition } from './document-spoof/definition.ts';
import { faceMatchDefinition } from './face-match/definition.ts';
import { fraudSignalsDefinition } from './fraud-signals/definition.ts';
import { icChipDefinition } from './ic-chip/definition.ts';
import { ocrDefinition } from './ocr/definition.ts';
import { selfieSpoofDefinition } from './selfie-spoof/definition.ts';

export const CHECKS = [
  ocrDefinition,
  documentSpoofDefinition,
  selfieSpoofDefinition,
  faceMatchDefinition,
  fraudSignalsDefinition,
  // An addition to §2.9: only in a session verified by its IC chip (docs/ic-chip.md).
  icChipDefinition,
] as const satisfies readonly CheckDefinition[];

type Registered = (typeof CHECKS)[number];

/** The keys of `results` (interface §2.9) and the reprocess queue names (docs/decisions.md). */
export type CheckId = Registered['id'];
export const CHECK_IDS: readonly CheckId[] = CHECKS.map((check) => check.id);

/**
 * The checks a session runs, in the registry's order: those that apply to the method its person
 * used (null: a session from before the chip, i.e. image). The pipeline enqueues, waits for and
 * decides on these only, so a check that does not apply is absent from results, never faked.
 */
export function checksForMethod(method: VerificationMethod | string | null): readonly CheckId[] {
  const used = (method ?? 'image') as VerificationMethod;
  return CHECKS.filter((check: CheckDefinition) => (check.methods ?? ['image']).includes(used)).map(
    (check) => check.id as CheckId,
  );
}

/** The declaration of check `id`. */
export type CheckDefinitionOf<Id extends CheckId> = Extract<Registered, { id: Id }>;
export const checkDefinition = <Id extends CheckId>(id: Id): CheckDefinitionOf<Id> =>
  CHECKS.find((check) => check.id === id) as CheckDefinitionOf<Id>;

/** The checks a check's runner reads the results of (it runs once they are stored). */
export type WaitsForOf<Id extends CheckId> = CheckDefinitionOf<Id>['waitsFor'][number] & CheckId;
/** The inputs a check's runner is given. */
export type InputsOf<Id extends CheckId> = CheckDefinitionOf<Id>['inputs'][number];

/** `results` as TypeBox properties, one optional entry per check in the registry's order. */
export type CheckResultsProperties = {
  [C in Registered as C['id']]: TOptional<C['resultSchema']>;
};
export function checkResultsProperties(checks: readonly CheckDefinition[] = CHECKS): CheckResultsProperties {
  return Object.fromEntries(
    checks.map((check) => [check.id, Type.Optional(check.resultSchema)]),
  ) as CheckResultsProperties;
}

/** `results` of the webhook payload (interface §2.9, §6.2): closed, as the payload that embeds it. */
export const CheckResultsSchema: TObject<CheckResultsProperties> = Type.Object(checkResultsProperties(), {
  ...closed,
  title: 'Results',
  description: 'Subset of API reference §2.9; may be {} after manual review',
});
export type CheckResults = Static<typeof CheckResultsSchema>;
/** The result object of check `id` as it appears in `results`. */
export type CheckResultOf<Id extends CheckId> = NonNullable<CheckResults[Id]>;

/** What is wrong with a list of definitions: an id twice, a wait for an unregistered check, a cycle. */
export function checkRegistryProblems(checks: readonly CheckDefinition[]): string[] {
  const ids = checks.map((check) => check.id);
  const problems: string[] = [];
  if (new Set(ids).size !== ids.length) problems.push('a check id is declared twice');
  const waits = new Map(checks.map((check) => [check.id, check.waitsFor]));
  const waitsTransitively = (id: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(waits.get(id) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(waits.get(next) ?? []));
    }
    return seen;
  };
  for (const check of checks) {
    for (const other of check.waitsFor) {
      if (!ids.includes(other)) problems.push(`${check.id} waits for ${other}, which is not registered`);
    }
    if (waitsTransitively(check.id).has(check.id)) problems.push(`${check.id} waits for itself`);
  }
  return problems;
}
