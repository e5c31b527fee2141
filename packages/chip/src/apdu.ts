// ISO/IEC 7816-4 §5.1 command and response APDUs, short and extended length, and the transport a
// reader hands them to (a phone's NFC session, a PC/SC reader, or the tests' software card).
import { concat, hex } from './bytes.js';

export interface CommandApdu {
  cla: number;
  ins: number;
  p1: number;
  p2: number;
  data?: Uint8Array;
  /** Bytes expected in the answer, 1…65536 (256 is short Le '00', 65536 extended '0000'). */
  le?: number;
}

export interface ResponseApdu {
  data: Buffer;
  /** SW1-SW2, e.g. 0x9000. */
  sw: number;
}

/** Sends one command APDU's bytes and resolves to the response's bytes (data then SW1 SW2). */
export interface CardTransport {
  transmit(command: Uint8Array): Promise<Uint8Array>;
}

export const SW_OK = 0x9000;

/** The card answered with a status other than success. */
export class CardStatusError extends Error {
  override name = 'CardStatusError';
  constructor(
    readonly sw: number,
    readonly command: string,
  ) {
    super(`${command}: the card answered ${sw.toString(16).toUpperCase().padStart(4, '0')}`);
  }
}

export const isExtended = (apdu: CommandApdu) => (apdu.data?.length ?? 0) > 255 || (apdu.le ?? 0) > 256;

/** The APDU's bytes (case 1–4, short unless data or Le need extended length). */
export function encodeCommand(apdu: CommandApdu): Buffer {
  const header = Buffer.from([apdu.cla, apdu.ins, apdu.p1, apdu.p2]);
  const data = apdu.data && apdu.data.length > 0 ? apdu.data : undefined;
  const le = apdu.le;
  if (le !== undefined && (le < 1 || le > 65536)) throw new RangeError(`Le ${le} out of range`);
  if (data && data.length > 65535) throw new RangeError('command data too long');
  if (!isExtended(apdu)) {
    const parts: Uint8Array[] = [header];
    if (data) parts.push(Buffer.from([data.length]), data);
    if (le !== undefined) parts.push(Buffer.from([le & 0xff]));
    return concat(...parts);
  }
  const parts: Uint8Array[] = [header];
  if (data) parts.push(Buffer.from([0, data.length >> 8, data.length & 0xff]), data);
  if (le !== undefined)
    parts.push(data ? Buffer.alloc(0) : Buffer.from([0]), Buffer.from([(le >> 8) & 0xff, le & 0xff]));
  return concat(...parts);
}

/** Parses a command APDU's bytes (the card's side), refusing inconsistent lengths. */
export function decodeCommand(bytes: Uint8Array): CommandApdu {
  const b = Buffer.from(bytes);
  if (b.length < 4) throw new RangeError('command APDU shorter than its header');
  const apdu: CommandApdu = {
    cla: b[0] as number,
    ins: b[1] as number,
    p1: b[2] as number,
    p2: b[3] as number,
  };
  const body = b.subarray(4);
  if (body.length === 0) return apdu;
  if (body.length === 1) return { ...apdu, le: body[0] || 256 };
  if (body[0] !== 0 || body.length === 2) {
    const lc = body[0] as number;
    if (body.length === 1 + lc) return { ...apdu, data: body.subarray(1) };
    if (body.length === 2 + lc) return { ...apdu, data: body.subarray(1, 1 + lc), le: body[1 + lc] || 256 };
    throw new RangeError('short APDU length mismatch');
  }
  // Extended: 00 then two bytes.
  if (body.length === 3) return { ...apdu, le: body.readUInt16BE(1) || 65536 };
  const lc = body.readUInt16BE(1);
  if (body.length === 3 + lc) return { ...apdu, data: body.subarray(3) };
  if (body.length === 5 + lc)
    return { ...apdu, data: body.subarray(3, 3 + lc), le: body.readUInt16BE(3 + lc) || 65536 };
  throw new RangeError('extended APDU length mismatch');
}

export function decodeResponse(bytes: Uint8Array): ResponseApdu {
  const b = Buffer.from(bytes);
  if (b.length < 2) throw new RangeError('response APDU shorter than its status word');
  return { data: b.subarray(0, b.length - 2), sw: b.readUInt16BE(b.length - 2) };
}

export const encodeResponse = (r: ResponseApdu): Buffer =>
  concat(r.data, Buffer.from([r.sw >> 8, r.sw & 0xff]));

/** A channel of command/response APDUs: plain, or under secure messaging once access control is done. */
export interface ApduChannel {
  send(apdu: CommandApdu): Promise<ResponseApdu>;
}

/** The plain channel over a transport. */
export const plainChannel = (transport: CardTransport): ApduChannel => ({
  async send(apdu) {
    return decodeResponse(await transport.transmit(encodeCommand(apdu)));
  },
});

/** Sends and insists on 9000. */
export async function sendOk(channel: ApduChannel, apdu: CommandApdu, what: string): Promise<Buffer> {
  const response = await channel.send(apdu);
  if (response.sw !== SW_OK) throw new CardStatusError(response.sw, what);
  return response.data;
}

export const describeApdu = (apdu: CommandApdu) => hex(encodeCommand(apdu));
