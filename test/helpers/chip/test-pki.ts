// A test PKI generated at test time (no key or certificate is committed): a CSCA, a Document
// Signer certificate it issues (ICAO 9303 Part 12 §7.1 profiles, reduced to what verification
// reads), and the EF.SOD the DS signs — CMS SignedData (RFC 5652) over the LDSSecurityObject.
import { createHash, generateKeyPairSync, type KeyObject, sign, X509Certificate } from 'node:crypto';
import {
  bitString,
  context,
  encode,
  integer,
  octetString,
  oid,
  parseDer,
  printableString,
  sequence,
  setOf,
  time,
  utf8String,
} from '../../../src/chip/der.ts';

export interface TestAuthority {
  certificate: X509Certificate;
  der: Buffer;
  pem: string;
  privateKey: KeyObject;
  /** DER of its subject Name and of its issuer's. */
  name: Buffer;
  issuerName: Buffer;
  serial: bigint;
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const SHA256 = sequence(oid('2.16.840.1.101.3.4.2.1'));

export const x500Name = (country: string, organisation: string, commonName: string) =>
  sequence(
    setOf(sequence(oid('2.5.4.6'), printableString(country))),
    setOf(sequence(oid('2.5.4.10'), utf8String(organisation))),
    setOf(sequence(oid('2.5.4.3'), utf8String(commonName))),
  );

const extension = (id: string, critical: boolean, value: Buffer) =>
  sequence(oid(id), ...(critical ? [encode(0x01, Buffer.from([0xff]))] : []), octetString(value));

let nextSerial = 0x1000n;

/** An X.509 v3 certificate for `subjectKey`, signed by `issuer` (itself when absent). */
export function issueCertificate(options: {
  subject: Buffer;
  subjectKey: KeyObject;
  issuer?: { name: Buffer; privateKey: KeyObject };
  ca: boolean;
  notBefore?: Date;
  notAfter?: Date;
}): { der: Buffer; serial: bigint } {
  const serial = nextSerial++;
  const issuerName = options.issuer?.name ?? options.subject;
  const signer = options.issuer?.privateKey;
  const keyUsage = options.ca ? Buffer.from([0x03, 0x02, 0x01, 0x06]) : Buffer.from([0x03, 0x02, 0x07, 0x80]);
  const extensions = [
    extension('2.5.29.15', true, keyUsage),
    ...(options.ca
      ? [extension('2.5.29.19', true, sequence(encode(0x01, Buffer.from([0xff])), integer(0)))]
      : []),
  ];
  const tbs = sequence(
    context(0, [integer(2)]),
    integer(serial),
    ECDSA_SHA256,
    issuerName,
    sequence(
      time(options.notBefore ?? new Date(Date.now() - 86_400_000)),
      time(options.notAfter ?? new Date(Date.now() + 5 * 365 * 86_400_000)),
    ),
    options.subject,
    options.subjectKey.export({ type: 'spki', format: 'der' }),
    context(3, [sequence(...extensions)]),
  );
  if (!signer) throw new Error('a certificate needs a signing key');
  const der = sequence(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, signer)));
  return { der, serial };
}

function authority(
  name: Buffer,
  issuerName: Buffer,
  der: Buffer,
  privateKey: KeyObject,
  serial: bigint,
): TestAuthority {
  const certificate = new X509Certificate(der);
  return { certificate, der, pem: certificate.toString(), privateKey, name, issuerName, serial };
}

export function createCsca(commonName = 'Utopia CSCA (test)'): TestAuthority {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = x500Name('JP', 'mimoto test PKI', commonName);
  const { der, serial } = issueCertificate({
    subject: name,
    subjectKey: publicKey,
    issuer: { name, privateKey },
    ca: true,
  });
  return authority(name, name, der, privateKey, serial);
}

export function createDocumentSigner(
  csca: TestAuthority,
  commonName = 'Document Signer (test)',
): TestAuthority {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = x500Name('JP', 'mimoto test PKI', commonName);
  const { der, serial } = issueCertificate({ subject: name, subjectKey: publicKey, issuer: csca, ca: false });
  return authority(name, csca.name, der, privateKey, serial);
}

/**
 * EF.SOD: tag 77, ContentInfo { signedData, SignedData { v3, SHA-256, LDSSecurityObject, the DS
 * certificate, one SignerInfo (issuerAndSerialNumber, signed attributes contentType and
 * messageDigest, ECDSA with SHA-256) } }.
 */
export function buildSod(options: {
  dataGroups: Record<number, Buffer>;
  signer: TestAuthority;
  /** The certificate the SOD carries (default the signer's): another one makes a "wrong signer". */
  certificate?: TestAuthority;
  /** Signs with this key instead of the signer's. */
  signingKey?: KeyObject;
}): Buffer {
  const hashes = Object.entries(options.dataGroups)
    .map(([n, bytes]) =>
      sequence(integer(Number(n)), octetString(createHash('sha256').update(bytes).digest())),
    )
    .sort(Buffer.compare);
  const lds = sequence(integer(0), SHA256, sequence(...hashes));
  const attributes = [
    sequence(oid('1.2.840.113549.1.9.3'), setOf(oid('2.23.136.1.1.1'))),
    sequence(oid('1.2.840.113549.1.9.4'), setOf(octetString(createHash('sha256').update(lds).digest()))),
  ];
  const signedAttributes = setOf(...attributes);
  const signature = sign('sha256', signedAttributes, options.signingKey ?? options.signer.privateKey);
  const certificate = options.certificate ?? options.signer;
  const signerInfo = sequence(
    integer(1),
    sequence(certificate.issuerName, integer(certificate.serial)),
    SHA256,
    // [0] IMPLICIT SET OF Attribute: the SET's contents under the context tag (RFC 5652 §5.3).
    context(0, [parseDer(signedAttributes).value]),
    ECDSA_SHA256,
    octetString(signature),
  );
  const signedData = sequence(
    integer(3),
    setOf(SHA256),
    sequence(oid('2.23.136.1.1.1'), context(0, [octetString(lds)])),
    context(0, [certificate.der]),
    setOf(signerInfo),
  );
  return encode(0x77, sequence(oid('1.2.840.113549.1.7.2'), context(0, [signedData])));
}
