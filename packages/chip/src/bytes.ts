// Byte helpers shared by the APDU, TLV and secure-messaging code.

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex').toUpperCase();

export function fromHex(text: string): Buffer {
  const clean = text.replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) throw new TypeError(`not hexadecimal: ${text}`);
  return Buffer.from(clean, 'hex');
}

export const concat = (...parts: Uint8Array[]): Buffer => Buffer.concat(parts);

export function xor(a: Uint8Array, b: Uint8Array): Buffer {
  if (a.length !== b.length) throw new RangeError('xor of unequal lengths');
  return Buffer.from(a.map((v, i) => v ^ (b[i] as number)));
}

/** Constant-time comparison of two MACs (a short one is never equal). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
