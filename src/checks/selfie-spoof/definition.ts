// The selfieSpoofCheck as the registry declares it (../check-registry.ts).
import { SpoofCheckSchema } from '../../domain/index.ts';
import { defineCheck } from '../check-definition.ts';

export const SELFIE_SPOOF_VERSION = '0.4.0';

export const selfieSpoofDefinition = defineCheck({
  id: 'selfieSpoofCheck',
  version: SELFIE_SPOOF_VERSION,
  inputs: ['livenessFrames'],
  waitsFor: [],
  resultSchema: SpoofCheckSchema,
  runsIn: 'thread',
  methods: ['image', 'ic_chip'],
});
