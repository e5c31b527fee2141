// @mimoto/chip: the reader side of IC-chip verification. A reader client (a phone app over NFC, a
// PC/SC reader) gives a `CardTransport`; this package speaks ISO/IEC 7816-4 and ICAO 9303 over it
// and hands the files and the Active Authentication answer to the service, which verifies them.
export {
  type ApduChannel,
  CardStatusError,
  type CardTransport,
  type CommandApdu,
  decodeCommand,
  decodeResponse,
  encodeCommand,
  encodeResponse,
  plainChannel,
  type ResponseApdu,
  SW_OK,
  sendOk,
} from './apdu.js';
export {
  type BacKeys,
  bacKeySeed,
  bacKeys,
  type MrzAccessKey,
  mrzCheckDigit,
  mrzInformation,
  performBac,
  sessionKeysFromChipAnswer,
  terminalCryptogram,
} from './bac.js';
export { concat, equalBytes, fromHex, hex, xor } from './bytes.js';
export { adjustParity, deriveDesKey, pad, retailMac, tdesDecrypt, tdesEncrypt, unpad } from './des.js';
export {
  DATA_GROUP_TAGS,
  dataGroupsInCom,
  EMRTD_AID,
  type EmrtdReading,
  FILE_ID,
  internalAuthenticate,
  LdsFileError,
  MAX_FILE_BYTES,
  type ReadEmrtdOptions,
  readEmrtd,
  readFile,
  selectFile,
} from './emrtd.js';
export {
  aesCmac,
  authenticationToken,
  BRAINPOOL_P256R1,
  type Curve,
  decodePoint,
  decryptNonce,
  deriveAes128Key,
  encodePoint,
  mapGenerator,
  mrzPassword,
  multiply,
  onCurve,
  PACE_ECDH_GM_AES_128,
  type Point,
} from './pace.js';
export {
  SecureMessaging,
  SecureMessagingError,
  type SessionKeys,
  secureChannel,
} from './secure-messaging.js';
export { encodeLength, encodeTag, readTlv, readTlvHeader, readTlvs, type Tlv, TlvError, tlv } from './tlv.js';
