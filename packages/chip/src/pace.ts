// PACE primitives (ICAO 9303 Part 11 §4.4 with the ECDH generic mapping, §9.7 key derivation,
// §4.4.3.4 authentication tokens) on brainpoolP256r1 with AES-128: the password key from the MRZ,
// the chip's nonce decrypted, the mapped generator G~ = s·G + H, the shared secret, the session
// keys and the tokens. Node's crypto has no point addition, so the curve arithmetic is here (BigInt,
// affine coordinates); the protocol exchange (MSE:SET AT, GENERAL AUTHENTICATE) is not yet written.
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { concat } from './bytes.js';
import { tlv } from './tlv.js';

export interface Curve {
  p: bigint;
  a: bigint;
  b: bigint;
  g: Point;
  n: bigint;
  size: number;
}
export type Point = { x: bigint; y: bigint } | null;

const big = (hex: string) => BigInt(`0x${hex}`);

/** RFC 5639 §3.4 brainpoolP256r1. */
export const BRAINPOOL_P256R1: Curve = {
  p: big('A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377'),
  a: big('7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9'),
  b: big('26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6'),
  g: {
    x: big('8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262'),
    y: big('547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997'),
  },
  n: big('A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7'),
  size: 32,
};

const mod = (v: bigint, m: bigint) => ((v % m) + m) % m;
function inverse(v: bigint, m: bigint): bigint {
  let [a, b, x0, x1] = [mod(v, m), m, 1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b] = [b, a - q * b];
    [x0, x1] = [x1, x0 - q * x1];
  }
  if (a !== 1n) throw new RangeError('not invertible');
  return mod(x0, m);
}

export function add(c: Curve, p1: Point, p2: Point): Point {
  if (!p1) return p2;
  if (!p2) return p1;
  if (p1.x === p2.x && mod(p1.y + p2.y, c.p) === 0n) return null;
  const l =
    p1.x === p2.x && p1.y === p2.y
      ? mod((3n * p1.x * p1.x + c.a) * inverse(2n * p1.y, c.p), c.p)
      : mod((p2.y - p1.y) * inverse(p2.x - p1.x, c.p), c.p);
  const x = mod(l * l - p1.x - p2.x, c.p);
  return { x, y: mod(l * (p1.x - x) - p1.y, c.p) };
}

export function multiply(c: Curve, k: bigint, point: Point): Point {
  let result: Point = null;
  let addend = point;
  for (let e = mod(k, c.n); e > 0n; e >>= 1n) {
    if (e & 1n) result = add(c, result, addend);
    addend = add(c, addend, addend);
  }
  return result;
}

export const onCurve = (c: Curve, pt: Point) =>
  !!pt && mod(pt.y * pt.y - (pt.x * pt.x * pt.x + c.a * pt.x + c.b), c.p) === 0n;

const fixed = (v: bigint, size: number) => Buffer.from(v.toString(16).padStart(size * 2, '0'), 'hex');

/** Uncompressed encoding 04 ‖ x ‖ y (BSI TR-03111 §3.2.1). */
export function encodePoint(c: Curve, pt: Point): Buffer {
  if (!pt) throw new RangeError('the point at infinity has no encoding');
  return concat(Buffer.from([4]), fixed(pt.x, c.size), fixed(pt.y, c.size));
}

export function decodePoint(c: Curve, bytes: Uint8Array): Point {
  if (bytes.length !== 1 + 2 * c.size || bytes[0] !== 4) throw new RangeError('not an uncompressed point');
  const b = Buffer.from(bytes);
  const pt = {
    x: big(b.subarray(1, 1 + c.size).toString('hex')),
    y: big(b.subarray(1 + c.size).toString('hex')),
  };
  // A point off the curve would leak the private key through an invalid-curve attack.
  if (!onCurve(c, pt)) throw new RangeError('the point is not on the curve');
  return pt;
}

/** Part 11 §9.7.1 for AES-128: SHA-1(K ‖ counter), first 16 bytes (counter 3 = the password key). */
export function deriveAes128Key(secret: Uint8Array, counter: 1 | 2 | 3): Buffer {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  return createHash('sha1').update(concat(secret, c)).digest().subarray(0, 16);
}

/** Part 11 §9.7.3: the MRZ password K = SHA-1(MRZ_information). */
export const mrzPassword = (mrzInfo: string) => createHash('sha1').update(mrzInfo, 'ascii').digest();

/** The chip's nonce s = AES-CBC⁻¹(K_π, z), zero IV. */
export function decryptNonce(kPi: Uint8Array, encrypted: Uint8Array): Buffer {
  const d = createDecipheriv('aes-128-cbc', kPi, Buffer.alloc(16));
  d.setAutoPadding(false);
  return concat(d.update(encrypted), d.final());
}

/** Generic mapping (§4.4.3.3.1): H = SK_map,IFD · PK_map,IC; G~ = s·G + H. */
export function mapGenerator(c: Curve, nonce: Uint8Array, skMap: bigint, pkMapIc: Point): Point {
  const h = multiply(c, skMap, pkMapIc);
  return add(c, multiply(c, big(Buffer.from(nonce).toString('hex')), c.g), h);
}

/** AES-CMAC (NIST SP 800-38B), 16 bytes. */
export function aesCmac(key: Uint8Array, message: Uint8Array): Buffer {
  const ecb = (block: Buffer) => {
    const e = createCipheriv('aes-128-ecb', key, null);
    e.setAutoPadding(false);
    return concat(e.update(block), e.final());
  };
  const shift = (b: Buffer) => {
    const out = Buffer.alloc(16);
    for (let i = 0; i < 16; i++) out[i] = (((b[i] as number) << 1) | ((b[i + 1] ?? 0) >> 7)) & 0xff;
    if ((b[0] as number) & 0x80) out[15] = (out[15] as number) ^ 0x87;
    return out;
  };
  const k1 = shift(ecb(Buffer.alloc(16)));
  const k2 = shift(k1);
  const m = Buffer.from(message);
  const blocks = Math.max(1, Math.ceil(m.length / 16));
  const complete = m.length > 0 && m.length % 16 === 0;
  const last = Buffer.alloc(16);
  m.copy(last, 0, (blocks - 1) * 16);
  if (!complete) last[m.length - (blocks - 1) * 16] = 0x80;
  const subkey = complete ? k1 : k2;
  let x: Buffer = Buffer.alloc(16);
  for (let i = 0; i < blocks - 1; i++) x = ecb(Buffer.from(x.map((v, j) => v ^ (m[i * 16 + j] as number))));
  return ecb(Buffer.from(x.map((v, j) => v ^ (last[j] as number) ^ (subkey[j] as number))));
}

/** id-PACE-ECDH-GM-AES-CBC-CMAC-128 (BSI TR-03110). */
export const PACE_ECDH_GM_AES_128 = Buffer.from('04007F00070202040202', 'hex');

/** §4.4.3.4: T = CMAC(KS_mac, 7F49 { 06 OID, 86 the other side's public point }), 8 bytes. */
export function authenticationToken(ksMac: Uint8Array, protocol: Buffer, otherPublicKey: Buffer): Buffer {
  const data = tlv(0x7f49, tlv(0x06, protocol), tlv(0x86, otherPublicKey));
  return aesCmac(ksMac, data).subarray(0, 8);
}
