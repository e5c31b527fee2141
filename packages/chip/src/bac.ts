// Basic Access Control, ICAO 9303 Part 11 §4.3 and Appendix D: the document basic access keys from
// the MRZ information (document number, birth date, expiry date, each with its check digit), the
// mutual authentication (GET CHALLENGE, EXTERNAL AUTHENTICATE) and the session keys and send
// sequence counter it yields.
import { createHash, randomBytes } from 'node:crypto';
import { type ApduChannel, CardStatusError, sendOk } from './apdu.js';
import { concat, equalBytes, xor } from './bytes.js';
import { deriveDesKey, pad, retailMac, tdesDecrypt, tdesEncrypt } from './des.js';
import { SecureMessaging, SecureMessagingError, type SessionKeys } from './secure-messaging.js';

/** The three MRZ fields BAC needs; dates YYMMDD as in the MRZ. */
export interface MrzAccessKey {
  documentNumber: string;
  birthDate: string;
  expiryDate: string;
}

const CHAR_VALUE = (c: string) => {
  if (c === '<') return 0;
  if (/[0-9]/.test(c)) return c.charCodeAt(0) - 48;
  if (/[A-Z]/.test(c)) return c.charCodeAt(0) - 55;
  throw new RangeError(`'${c}' cannot stand in an MRZ field`);
};

/** ICAO 9303 Part 3 §4.9: weights 7, 3, 1 modulo 10. */
export function mrzCheckDigit(field: string): number {
  let sum = 0;
  for (let i = 0; i < field.length; i++) sum += CHAR_VALUE(field[i] as string) * ([7, 3, 1][i % 3] as number);
  return sum % 10;
}

/**
 * Part 11 §9.7.2: MRZ_information = document number (at least 9 characters, '<' filled) ‖ check
 * digit ‖ birth date ‖ check digit ‖ expiry date ‖ check digit.
 */
export function mrzInformation(key: MrzAccessKey): string {
  const number = key.documentNumber.toUpperCase().padEnd(9, '<');
  for (const [name, date] of [
    ['birth date', key.birthDate],
    ['expiry date', key.expiryDate],
  ] as const)
    if (!/^\d{6}$/.test(date)) throw new RangeError(`${name} must be YYMMDD`);
  const field = (s: string) => `${s}${mrzCheckDigit(s)}`;
  return field(number) + field(key.birthDate) + field(key.expiryDate);
}

/** K_seed = the first 16 bytes of SHA-1(MRZ_information). */
export const bacKeySeed = (mrzInfo: string) =>
  createHash('sha1').update(mrzInfo, 'ascii').digest().subarray(0, 16);

export interface BacKeys {
  kEnc: Buffer;
  kMac: Buffer;
}

export function bacKeys(mrzInfo: string): BacKeys {
  const seed = bacKeySeed(mrzInfo);
  return { kEnc: deriveDesKey(seed, 1), kMac: deriveDesKey(seed, 2) };
}

/** The terminal's EXTERNAL AUTHENTICATE data: E_IFD = 3DES(K_enc, RND.IFD ‖ RND.IC ‖ K.IFD), M_IFD its MAC. */
export function terminalCryptogram(keys: BacKeys, rndIc: Buffer, rndIfd: Buffer, kIfd: Buffer): Buffer {
  const eIfd = tdesEncrypt(keys.kEnc, concat(rndIfd, rndIc, kIfd));
  return concat(eIfd, retailMac(keys.kMac, pad(eIfd)));
}

/**
 * Checks the chip's answer E_IC ‖ M_IC (its MAC, then RND.IC and RND.IFD inside it) and derives
 * the session keys from K.IFD ⊕ K.IC, the SSC from the low halves of RND.IC and RND.IFD.
 */
export function sessionKeysFromChipAnswer(
  keys: BacKeys,
  rndIc: Buffer,
  rndIfd: Buffer,
  kIfd: Buffer,
  answer: Buffer,
): SessionKeys {
  if (answer.length !== 40)
    throw new SecureMessagingError('the chip answer to EXTERNAL AUTHENTICATE is not 40 bytes');
  const eIc = answer.subarray(0, 32);
  if (!equalBytes(retailMac(keys.kMac, pad(eIc)), answer.subarray(32)))
    throw new SecureMessagingError('the chip answer MAC does not verify (wrong MRZ key?)');
  const r = tdesDecrypt(keys.kEnc, eIc);
  if (!equalBytes(r.subarray(0, 8), rndIc) || !equalBytes(r.subarray(8, 16), rndIfd))
    throw new SecureMessagingError('the chip did not return our challenge');
  const seed = xor(kIfd, r.subarray(16, 32));
  return {
    ksEnc: deriveDesKey(seed, 1),
    ksMac: deriveDesKey(seed, 2),
    ssc: concat(rndIc.subarray(4, 8), rndIfd.subarray(4, 8)),
  };
}

/** Runs BAC on a channel whose eMRTD application is selected; resolves to the SM state. */
export async function performBac(
  channel: ApduChannel,
  key: MrzAccessKey,
  random: (n: number) => Buffer = randomBytes,
): Promise<SecureMessaging> {
  const keys = bacKeys(mrzInformation(key));
  const rndIc = await sendOk(channel, { cla: 0, ins: 0x84, p1: 0, p2: 0, le: 8 }, 'GET CHALLENGE');
  if (rndIc.length !== 8) throw new SecureMessagingError('GET CHALLENGE did not answer 8 bytes');
  const rndIfd = random(8);
  const kIfd = random(16);
  const response = await channel.send({
    cla: 0,
    ins: 0x82,
    p1: 0,
    p2: 0,
    data: terminalCryptogram(keys, rndIc, rndIfd, kIfd),
    le: 40,
  });
  // 6300 / 6982: the chip's own MAC check of our cryptogram failed — the MRZ key is wrong.
  if (response.sw !== 0x9000)
    throw new CardStatusError(response.sw, 'EXTERNAL AUTHENTICATE (is the MRZ key right?)');
  return new SecureMessaging(sessionKeysFromChipAnswer(keys, rndIc, rndIfd, kIfd, response.data));
}
