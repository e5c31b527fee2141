// ASN.1 DER, as much as EF.SOD (RFC 5652 CMS SignedData, ICAO 9303 Part 10 §4.6.2) and X.509
// (RFC 5280) need: a reader that refuses lengths past the end and trailing bytes, and an encoder
// (the test PKI builds certificates and SODs with it). Node's X509Certificate parses and verifies
// certificates themselves; nothing here interprets a certificate beyond locating it. Our own small
// codec rather than a library: the few structures are fixed, and the TLV reading is the reader
// package's (packages/chip), already exercised by every APDU.
import { readTlv, TlvError, tlv } from '../../packages/chip/src/index.ts';

export class DerError extends Error {
  override name = 'DerError';
}

export interface DerNode {
  /** The whole tag as a number (e.g. 0x30 SEQUENCE, 0xA0 [0] constructed, 0x5F1F). */
  tag: number;
  constructed: boolean;
  /** The whole TLV's bytes. */
  bytes: Buffer;
  value: Buffer;
}

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

/** Reads the one TLV that `bytes` must consist of (trailing bytes refused unless `allowTrailing`). */
export function parseDer(bytes: Buffer, allowTrailing = false): DerNode {
  try {
    const t = readTlv(bytes, 0);
    if (!allowTrailing && t.end !== bytes.length) throw new DerError('trailing bytes after the DER value');
    return {
      tag: t.tag,
      constructed: ((bytes[0] as number) & 0x20) !== 0,
      bytes: bytes.subarray(0, t.end),
      value: t.value,
    };
  } catch (error) {
    if (error instanceof TlvError) throw new DerError(error.message);
    throw error;
  }
}

/** The TLVs inside a constructed node, at most `max` of them (hostile input cannot make many). */
export function children(node: DerNode, max = 10_000): DerNode[] {
  if (!node.constructed) throw new DerError(`tag ${node.tag.toString(16)} is not constructed`);
  const out: DerNode[] = [];
  let offset = 0;
  try {
    while (offset < node.value.length) {
      if (out.length >= max) throw new DerError('too many elements');
      const t = readTlv(node.value, offset);
      const first = node.value[offset] as number;
      out.push({
        tag: t.tag,
        constructed: (first & 0x20) !== 0,
        bytes: node.value.subarray(offset, t.end),
        value: t.value,
      });
      offset = t.end;
    }
  } catch (error) {
    if (error instanceof TlvError) throw new DerError(error.message);
    throw error;
  }
  return out;
}

/** Children of a node that must have tag `tag`. */
export function expect(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node) throw new DerError(`${what} is missing`);
  if (node.tag !== tag)
    throw new DerError(`${what}: expected tag ${tag.toString(16)}, found ${node.tag.toString(16)}`);
  return node;
}

export function decodeOid(node: DerNode): string {
  expect(node, TAG.oid, 'object identifier');
  const v = node.value;
  if (v.length === 0 || v.length > 64) throw new DerError('bad object identifier length');
  const arcs: number[] = [];
  let value = 0;
  for (const byte of v) {
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 256) throw new DerError('object identifier arc too large');
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0;
    }
  }
  if (value !== 0 || (v[v.length - 1] as number) & 0x80) throw new DerError('truncated object identifier');
  const first = arcs.shift() as number;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** A small non-negative INTEGER (version numbers, data group numbers). */
export function decodeSmallInteger(node: DerNode): number {
  expect(node, TAG.integer, 'integer');
  if (node.value.length === 0 || node.value.length > 4) throw new DerError('integer out of range');
  if ((node.value[0] as number) & 0x80) throw new DerError('negative integer');
  return node.value.readUIntBE(0, node.value.length);
}

// ---- encoding ----

export const encode = (tag: number, ...value: Uint8Array[]) => tlv(tag, ...value);
export const sequence = (...items: Uint8Array[]) => encode(TAG.sequence, ...items);
/** SET OF in DER order (elements sorted by their encodings). */
export const setOf = (...items: Buffer[]) => encode(TAG.set, ...[...items].sort(Buffer.compare));
export const octetString = (bytes: Uint8Array) => encode(TAG.octetString, bytes);
export const nullValue = () => encode(TAG.null);
export const bitString = (bytes: Uint8Array) => encode(TAG.bitString, Buffer.from([0]), bytes);
export const printableString = (text: string) => encode(TAG.printableString, Buffer.from(text, 'ascii'));
export const utf8String = (text: string) => encode(TAG.utf8String, Buffer.from(text, 'utf8'));
/** [n] around `items`: constructed (EXPLICIT, or IMPLICIT of a constructed type) by default. */
export const context = (n: number, items: Uint8Array[], constructed = true) =>
  encode((constructed ? 0xa0 : 0x80) | n, ...items);

export function integer(value: number | bigint | Buffer): Buffer {
  let bytes: Buffer;
  if (Buffer.isBuffer(value)) bytes = value;
  else {
    let hex = BigInt(value).toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    bytes = Buffer.from(hex, 'hex');
  }
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && !((bytes[start + 1] as number) & 0x80)) start++;
  bytes = bytes.subarray(start);
  if ((bytes[0] as number) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return encode(TAG.integer, bytes);
}

export function oid(text: string): Buffer {
  const arcs = text.split('.').map(Number);
  const body: number[] = [];
  const push = (n: number) => {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    body.push(...chunk);
  };
  push((arcs[0] as number) * 40 + (arcs[1] as number));
  for (const arc of arcs.slice(2)) push(arc);
  return encode(TAG.oid, Buffer.from(body));
}

/** UTCTime (years 1950–2049) or GeneralizedTime, as RFC 5280 §4.1.2.5 asks. */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? encode(TAG.utcTime, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : encode(TAG.generalizedTime, Buffer.from(`${iso}Z`, 'ascii'));
}
