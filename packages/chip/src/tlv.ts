// BER-TLV as ISO/IEC 7816-4 §5.2 and ICAO 9303 Part 10 §4 use it: tags of one or more bytes (the
// low five bits all set mean another byte follows), lengths short (< 0x80) or long (0x81–0x84 then
// that many bytes). Enough for the secure-messaging data objects and the LDS files' outer tags.
import { concat } from './bytes.js';

export class TlvError extends Error {
  override name = 'TlvError';
}

export interface Tlv {
  tag: number;
  /** Offset of the tag. */
  start: number;
  /** The value's bytes (a view into the input). */
  value: Buffer;
  /** Offset just past this object. */
  end: number;
  /** Offset of the value. */
  valueStart: number;
}

/** A TLV's tag and length at `offset`, without its value (which may not have been read yet). */
export function readTlvHeader(
  bytes: Buffer,
  offset = 0,
): { tag: number; length: number; valueStart: number } {
  let i = offset;
  const byte = () => {
    if (i >= bytes.length) throw new TlvError('TLV truncated');
    return bytes[i++] as number;
  };
  let tag = byte();
  if ((tag & 0x1f) === 0x1f) {
    let next: number;
    let count = 0;
    do {
      next = byte();
      tag = tag * 256 + next;
      if (++count > 3) throw new TlvError('TLV tag too long');
    } while (next & 0x80);
  }
  let length = byte();
  if (length === 0x80) throw new TlvError('indefinite length is not allowed here');
  if (length > 0x80) {
    const count = length & 0x7f;
    if (count > 4) throw new TlvError('TLV length too long');
    length = 0;
    for (let k = 0; k < count; k++) length = length * 256 + byte();
  }
  return { tag, length, valueStart: i };
}

/** Reads one TLV at `offset` of `bytes`, refusing lengths that run past the end. */
export function readTlv(bytes: Buffer, offset = 0): Tlv {
  const { tag, length, valueStart } = readTlvHeader(bytes, offset);
  const end = valueStart + length;
  if (end > bytes.length) throw new TlvError(`TLV length ${length} runs past the end`);
  return { tag, start: offset, value: bytes.subarray(valueStart, end), end, valueStart };
}

/** Every TLV in `bytes`, in order. */
export function readTlvs(bytes: Buffer): Tlv[] {
  const out: Tlv[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const tlv = readTlv(bytes, offset);
    out.push(tlv);
    offset = tlv.end;
  }
  return out;
}

export function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  if (length <= 0xff) return Buffer.from([0x81, length]);
  if (length <= 0xffff) return Buffer.from([0x82, length >> 8, length & 0xff]);
  return Buffer.from([0x83, length >> 16, (length >> 8) & 0xff, length & 0xff]);
}

export function encodeTag(tag: number): Buffer {
  const out: number[] = [];
  let t = tag;
  do {
    out.unshift(t & 0xff);
    t = Math.floor(t / 256);
  } while (t > 0);
  return Buffer.from(out);
}

export const tlv = (tag: number, ...value: Uint8Array[]): Buffer => {
  const v = concat(...value);
  return concat(encodeTag(tag), encodeLength(v.length), v);
};
