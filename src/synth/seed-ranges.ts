// Which corpus seeds may be looked at while tuning the reading and which only measure it
// (docs/corpus.md "Seeds"): a change to the OCR is tried on tuning seeds, and the figures the
// project reports come from validation seeds nobody looked at while making the change.

export const TUNING_SEEDS = { from: 1, to: 999 } as const;
export const VALIDATION_SEEDS = { from: 1000, to: 1999 } as const;

export type SeedUse = 'tuning' | 'validation' | 'undeclared';

export function seedUse(seed: number): SeedUse {
  if (seed >= VALIDATION_SEEDS.from && seed <= VALIDATION_SEEDS.to) return 'validation';
  if (seed >= TUNING_SEEDS.from && seed <= TUNING_SEEDS.to) return 'tuning';
  return 'undeclared';
}
