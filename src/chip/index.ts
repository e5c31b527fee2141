// IC-chip verification (ICAO 9303 eMRTDs): what the service checks of the files and answers a
// reader client hands it — Passive Authentication against the operator's CSCA trust store,
// Active Authentication against the session's nonce, the data groups' contents.
export {
  type ActiveAuthenticationFailure,
  type ActiveAuthenticationInput,
  type ActiveAuthenticationResult,
  verifyActiveAuthentication,
} from './active-authentication.ts';
export { type HashName, UnsupportedAlgorithmError } from './algorithms.ts';
export { type ChipIdentity, chipIdentity } from './chip-identity.ts';
export {
  chipFaceAsJpeg,
  decodeJpeg2000,
  encodeJpeg2000,
  FaceImageError,
  jpeg2000Codestream,
} from './face-image.ts';
export { type ChipFace, type ChipMrz, DataGroupFormatError, parseDg1, parseDg2 } from './lds.ts';
export { CHIP_FILE_LIMITS, type ChipFileName } from './limits.ts';
export {
  type PassiveAuthenticationFailure,
  type PassiveAuthenticationInput,
  type PassiveAuthenticationResult,
  verifyPassiveAuthentication,
} from './passive-authentication.ts';
export { type ParsedSod, parseSod, SodFormatError } from './sod.ts';
export { loadTrustStore, parseTrustAnchors, TrustStoreError } from './trust-store.ts';
export {
  type ChipReading,
  ChipReadingRejected,
  type ChipReasonCode,
  type ChipVerification,
  verifyChipReading,
} from './verify-chip-reading.ts';
