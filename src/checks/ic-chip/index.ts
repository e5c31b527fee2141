// The icChip check (docs/ic-chip.md): its declaration; the verification itself is src/chip.
export { IC_CHIP_VERSION, icChipDefinition } from './definition.ts';
