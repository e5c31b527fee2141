// Reading an eMRTD (ICAO 9303 Part 10: the LDS files; Part 11: access and Active Authentication):
// select the application, BAC, then EF.COM, the data groups it lists that were asked for, EF.SOD,
// and, given a nonce the verifying service issued, INTERNAL AUTHENTICATE. The reader checks nothing
// the service must check itself (signatures, hashes, the AA answer): it only relays the bytes.
import { type ApduChannel, CardStatusError, type CardTransport, plainChannel, sendOk } from './apdu.js';
import { type MrzAccessKey, performBac } from './bac.js';
import { secureChannel } from './secure-messaging.js';
import { readTlv, readTlvHeader, TlvError } from './tlv.js';

/** Part 10 §3.1: the eMRTD application's AID. */
export const EMRTD_AID = Buffer.from('A0000002471001', 'hex');

/** Part 10 Table 35: short EF identifiers → file identifiers; data group n is 01 0n. */
export const FILE_ID = { com: 0x011e, sod: 0x011d, dataGroup: (n: number) => 0x0100 + n } as const;

/** Part 10 Table 34: the tag each data group's file starts with, as EF.COM lists them. */
export const DATA_GROUP_TAGS: Readonly<Record<number, number>> = {
  1: 0x61,
  2: 0x75,
  3: 0x63,
  4: 0x76,
  5: 0x65,
  6: 0x66,
  7: 0x67,
  8: 0x68,
  9: 0x69,
  10: 0x6a,
  11: 0x6b,
  12: 0x6c,
  13: 0x6d,
  14: 0x6e,
  15: 0x6f,
  16: 0x70,
};

/** READ BINARY with an even INS addresses offsets up to 0x7FFF (P1's high bit is the SFI flag). */
export const MAX_FILE_BYTES = 0x8000;
/** Plain bytes per READ BINARY so the protected answer (DO87 + DO99 + DO8E) fits a short Le. */
const CHUNK = 0xdf;

export class LdsFileError extends Error {
  override name = 'LdsFileError';
}

export async function selectFile(channel: ApduChannel, fid: number): Promise<void> {
  await sendOk(
    channel,
    { cla: 0, ins: 0xa4, p1: 0x02, p2: 0x0c, data: Buffer.from([fid >> 8, fid & 0xff]) },
    `SELECT ${fid.toString(16).padStart(4, '0')}`,
  );
}

const readBinary = (channel: ApduChannel, offset: number, le: number) =>
  sendOk(channel, { cla: 0, ins: 0xb0, p1: offset >> 8, p2: offset & 0xff, le }, `READ BINARY at ${offset}`);

/** Selects and reads a whole LDS file: its first bytes give the outer TLV's length. */
export async function readFile(
  channel: ApduChannel,
  fid: number,
  maxBytes = MAX_FILE_BYTES,
): Promise<Buffer> {
  await selectFile(channel, fid);
  const head = await readBinary(channel, 0, 4);
  let total: number;
  try {
    const t = readTlvHeader(head);
    total = t.valueStart + t.length;
  } catch (error) {
    // Four bytes hold any LDS file's tag and length (Part 10 §4.7 lengths are at most three bytes).
    if (error instanceof TlvError)
      throw new LdsFileError(`file ${fid.toString(16)} does not start with a TLV header`);
    throw error;
  }
  if (total > Math.min(maxBytes, MAX_FILE_BYTES))
    throw new LdsFileError(
      `file ${fid.toString(16)} is ${total} bytes, more than ${Math.min(maxBytes, MAX_FILE_BYTES)}`,
    );
  const parts = [head.subarray(0, Math.min(head.length, total))];
  let offset = parts[0]!.length;
  while (offset < total) {
    const chunk = await readBinary(channel, offset, Math.min(CHUNK, total - offset));
    if (chunk.length === 0) throw new LdsFileError(`file ${fid.toString(16)} ended at ${offset} of ${total}`);
    parts.push(chunk);
    offset += chunk.length;
  }
  return Buffer.concat(parts).subarray(0, total);
}

/** The data groups EF.COM lists (its tag list, DO'5C'). */
export function dataGroupsInCom(com: Buffer): number[] {
  const outer = readTlv(com);
  if (outer.tag !== 0x60) throw new LdsFileError('EF.COM does not start with tag 60');
  let offset = 0;
  while (offset < outer.value.length) {
    const t = readTlv(outer.value, offset);
    if (t.tag === 0x5c)
      return [...t.value]
        .map((tag) => Number(Object.entries(DATA_GROUP_TAGS).find(([, v]) => v === tag)?.[0]))
        .filter((n) => Number.isInteger(n))
        .sort((a, b) => a - b);
    offset = t.end;
  }
  throw new LdsFileError('EF.COM has no tag list');
}

/** INTERNAL AUTHENTICATE (Part 11 §6.1): the chip signs the 8-byte nonce with its AA private key. */
export async function internalAuthenticate(channel: ApduChannel, nonce: Buffer): Promise<Buffer> {
  if (nonce.length !== 8) throw new RangeError('the Active Authentication challenge is 8 bytes');
  return sendOk(channel, { cla: 0, ins: 0x88, p1: 0, p2: 0, data: nonce, le: 256 }, 'INTERNAL AUTHENTICATE');
}

export interface ReadEmrtdOptions {
  access: MrzAccessKey;
  /** Data groups wanted, read when EF.COM lists them (default 1, 2, 14, 15). */
  dataGroups?: number[];
  /** The service's nonce for this session: Active Authentication is done when given and DG15 exists. */
  activeAuthenticationNonce?: Buffer;
  /** Largest file accepted (default MAX_FILE_BYTES). */
  maxFileBytes?: number;
  random?: (n: number) => Buffer;
}

export interface EmrtdReading {
  com: Buffer;
  sod: Buffer;
  dataGroups: Record<number, Buffer>;
  /** The chip's signature over the nonce; absent when no nonce was given or the chip has no DG15. */
  activeAuthentication?: { nonce: Buffer; signature: Buffer };
}

/** Reads an eMRTD over `transport` with BAC: what a reader client hands the service. */
export async function readEmrtd(transport: CardTransport, options: ReadEmrtdOptions): Promise<EmrtdReading> {
  const plain = plainChannel(transport);
  await sendOk(plain, { cla: 0, ins: 0xa4, p1: 0x04, p2: 0x0c, data: EMRTD_AID }, 'SELECT eMRTD application');
  const sm = await performBac(plain, options.access, options.random);
  const channel = secureChannel(plain, sm);
  const max = options.maxFileBytes ?? MAX_FILE_BYTES;
  const com = await readFile(channel, FILE_ID.com, max);
  const present = new Set(dataGroupsInCom(com));
  const wanted = options.dataGroups ?? [1, 2, 14, 15];
  const dataGroups: Record<number, Buffer> = {};
  for (const n of wanted)
    if (present.has(n)) dataGroups[n] = await readFile(channel, FILE_ID.dataGroup(n), max);
  const sod = await readFile(channel, FILE_ID.sod, max);
  const reading: EmrtdReading = { com, sod, dataGroups };
  if (options.activeAuthenticationNonce && present.has(15)) {
    const nonce = options.activeAuthenticationNonce;
    reading.activeAuthentication = { nonce, signature: await internalAuthenticate(channel, nonce) };
  }
  return reading;
}

export { CardStatusError };
