// An eMRTD's files built from a test identity (ICAO 9303 Part 10): EF.COM, DG1 (a TD3 MRZ with
// its check digits), DG2 (an ISO/IEC 19794-5 face record around a JPEG), DG15 (the Active
// Authentication public key), EF.SOD signed by a test Document Signer. Options make the
// misbehaving documents the tests refuse.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import sharp from 'sharp';
import { type MrzAccessKey, mrzCheckDigit, tlv } from '../../../packages/chip/src/index.ts';
import { integer } from '../../../src/chip/der.ts';
import { buildSod, createCsca, createDocumentSigner, type TestAuthority } from './test-pki.ts';

export interface TestIdentity {
  lastName: string;
  firstName: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  expiryDate: string;
}

export const TEST_IDENTITY: TestIdentity = {
  lastName: 'YAMADA',
  firstName: 'HANAKO',
  documentNumber: 'TK1234567',
  nationality: 'JPN',
  birthDate: '900115',
  sex: 'F',
  expiryDate: '340220',
};

const field = (s: string) => `${s}${mrzCheckDigit(s)}`;

/** ICAO 9303 Part 4 TD3 lines for a passport of `id` issued by Japan. */
export function td3Lines(id: TestIdentity): [string, string] {
  const line1 = `P<JPN${id.lastName}<<${id.firstName.replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44);
  const number = field(id.documentNumber.padEnd(9, '<'));
  const personal = field('<'.repeat(14));
  const birth = field(id.birthDate);
  const expiry = field(id.expiryDate);
  const composite = mrzCheckDigit(number + birth + expiry + personal);
  return [line1, `${number}${id.nationality}${birth}${id.sex}${expiry}${personal}${composite}`];
}

export const dg1 = (lines: string[]) => tlv(0x61, tlv(0x5f1f, Buffer.from(lines.join(''), 'ascii')));

/** DG2: biometric information group template with one face, ISO/IEC 19794-5:2005. */
export function dg2(
  image: Buffer,
  format: 'jpeg' | 'jpeg2000' = 'jpeg',
  size = { width: 240, height: 320 },
): Buffer {
  const info = Buffer.alloc(12);
  info[0] = 1; // full frontal
  info[1] = format === 'jpeg' ? 0 : 1;
  info.writeUInt16BE(size.width, 2);
  info.writeUInt16BE(size.height, 4);
  info[6] = 1; // 24-bit RGB
  const facial = Buffer.alloc(20);
  facial.writeUInt32BE(20 + 12 + image.length, 0);
  const record = Buffer.concat([facial, info, image]);
  const header = Buffer.alloc(14);
  header.write('FAC\x00010\x00', 0, 'latin1');
  header.writeUInt32BE(14 + record.length, 8);
  header.writeUInt16BE(1, 12);
  const bht = tlv(
    0xa1,
    tlv(0x80, Buffer.from([1, 1])),
    tlv(0x81, Buffer.from([2])),
    tlv(0x87, Buffer.from([1, 1])),
    tlv(0x88, Buffer.from([0, 8])),
  );
  return tlv(0x75, tlv(0x7f61, integer(1), tlv(0x7f60, bht, tlv(0x5f2e, header, record))));
}

export const dg15 = (publicKey: KeyObject) => tlv(0x6f, publicKey.export({ type: 'spki', format: 'der' }));

export function efCom(dataGroups: number[]): Buffer {
  const tags: Record<number, number> = { 1: 0x61, 2: 0x75, 14: 0x6e, 15: 0x6f };
  return tlv(
    0x60,
    tlv(0x5f01, Buffer.from('0107', 'ascii')),
    tlv(0x5f36, Buffer.from('040000', 'ascii')),
    tlv(0x5c, Buffer.from(dataGroups.map((n) => tags[n] as number))),
  );
}

let cachedFace: Buffer | undefined;
/** A small JPEG standing in for the portrait (PA does not look at the picture). */
export async function plainFace(): Promise<Buffer> {
  cachedFace ??= await sharp({
    create: { width: 240, height: 320, channels: 3, background: { r: 180, g: 150, b: 130 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  return cachedFace;
}

export interface TestDocument {
  identity: TestIdentity;
  mrzLines: [string, string];
  access: MrzAccessKey;
  com: Buffer;
  sod: Buffer;
  dataGroups: Record<number, Buffer>;
  csca: TestAuthority;
  documentSigner: TestAuthority;
  /** The chip's AA private key: only the genuine chip has it. */
  activeAuthenticationKey: KeyObject;
}

export interface TestDocumentOptions {
  identity?: Partial<TestIdentity>;
  face?: Buffer;
  faceFormat?: 'jpeg' | 'jpeg2000';
  /** Share one CSCA (and DS) between documents; generated when absent. */
  csca?: TestAuthority;
  documentSigner?: TestAuthority;
  /** DG1 altered after the SOD was signed. */
  tamperDataGroup1?: boolean;
  /** The SOD carries the DS certificate but is signed by another key. */
  wrongSigner?: boolean;
}

export async function buildTestDocument(options: TestDocumentOptions = {}): Promise<TestDocument> {
  const identity = { ...TEST_IDENTITY, ...options.identity };
  const csca = options.csca ?? createCsca();
  const documentSigner = options.documentSigner ?? createDocumentSigner(csca);
  const aa = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const mrzLines = td3Lines(identity);
  const dataGroups: Record<number, Buffer> = {
    1: dg1(mrzLines),
    2: dg2(options.face ?? (await plainFace()), options.faceFormat),
    15: dg15(aa.publicKey),
  };
  const sod = buildSod({
    dataGroups,
    signer: documentSigner,
    ...(options.wrongSigner
      ? { signingKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }
      : {}),
  });
  if (options.tamperDataGroup1) {
    const altered = [
      mrzLines[0].replace(identity.lastName, 'SATO'.padEnd(identity.lastName.length, '<')),
      mrzLines[1],
    ];
    dataGroups[1] = dg1(altered);
  }
  return {
    identity,
    mrzLines,
    access: {
      documentNumber: identity.documentNumber,
      birthDate: identity.birthDate,
      expiryDate: identity.expiryDate,
    },
    com: efCom([1, 2, 15]),
    sod,
    dataGroups,
    csca,
    documentSigner,
    activeAuthenticationKey: aa.privateKey,
  };
}
