// The icChip check as the registry declares it (../check-registry.ts): the reading a chip reader
// handed in for the session, verified against the operator's CSCA trust store and the nonce the
// service issued (src/chip/verify-chip-reading.ts; docs/ic-chip.md). Its runner is in
// src/pipeline/check-runners.ts, since the trust store comes from the platform's configuration.
import { IcChipSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

export const IC_CHIP_VERSION = '1.0.0';

export const icChipDefinition = defineCheck({
  id: 'icChip',
  version: IC_CHIP_VERSION,
  inputs: ['chipReading'],
  waitsFor: [],
  resultSchema: IcChipSchema,
  runsIn: 'eventLoop',
  methods: ['ic_chip'],
});
