// EF.SOD (ICAO 9303 Part 10 §4.6.2): tag 0x77 around a CMS ContentInfo (RFC 5652) of type
// SignedData whose encapsulated content is the LDSSecurityObject — the hash of each data group —
// signed by the Document Signer, whose certificate the SignedData carries (Part 12 §4.4.2). This
// parses it; passive-authentication.ts verifies it.

import { type HashName, hashOf, OID, UnsupportedAlgorithmError } from './algorithms.ts';
import {
  children,
  DerError,
  type DerNode,
  decodeOid,
  decodeSmallInteger,
  expect,
  parseDer,
  TAG,
} from './der.ts';

export interface SignerIdentifier {
  /** DER of the issuer Name and the serial INTEGER's value (issuerAndSerialNumber)… */
  issuer?: Buffer;
  serial?: Buffer;
  /** …or the subjectKeyIdentifier ([0]). */
  subjectKeyIdentifier?: Buffer;
}

export interface ParsedSod {
  /** The LDSSecurityObject's hash algorithm and hashes by data group number. */
  hashAlgorithm: HashName;
  dataGroupHashes: Map<number, Buffer>;
  /** The encapsulated content's bytes (what messageDigest covers). */
  content: Buffer;
  /** DER certificates carried in the SignedData. */
  certificates: Buffer[];
  signer: {
    sid: SignerIdentifier;
    digestAlgorithm: HashName;
    /** The signed attributes as signed: re-tagged as SET OF (RFC 5652 §5.4). */
    signedAttributes: Buffer;
    contentType: string;
    messageDigest: Buffer;
    signatureAlgorithm: DerNode;
    signature: Buffer;
  };
}

/** EF.SOD that cannot be read as ICAO 9303 says it is built. */
export class SodFormatError extends Error {
  override name = 'SodFormatError';
}

function attributes(signedAttrs: DerNode): Map<string, DerNode[]> {
  const out = new Map<string, DerNode[]>();
  for (const attribute of children(signedAttrs, 64)) {
    const [type, values] = children(expect(attribute, TAG.sequence, 'attribute'));
    const name = decodeOid(type as DerNode);
    if (out.has(name)) throw new SodFormatError(`signed attribute ${name} appears twice`);
    out.set(name, children(expect(values, TAG.set, 'attribute values'), 8));
  }
  return out;
}

function signerIdentifier(node: DerNode): SignerIdentifier {
  if (node.tag === TAG.sequence) {
    const [issuer, serial] = children(node);
    return {
      issuer: expect(issuer, TAG.sequence, 'issuer').bytes,
      serial: expect(serial, TAG.integer, 'serial').value,
    };
  }
  if (node.tag === 0x80) return { subjectKeyIdentifier: node.value };
  throw new SodFormatError('unknown signer identifier');
}

export function parseSod(bytes: Buffer): ParsedSod {
  try {
    const outer = parseDer(bytes);
    if (outer.tag !== 0x77) throw new SodFormatError('EF.SOD does not start with tag 77');
    const contentInfo = expect(parseDer(outer.value), TAG.sequence, 'ContentInfo');
    const [type, wrapped] = children(contentInfo);
    if (decodeOid(type as DerNode) !== OID.signedData)
      throw new SodFormatError('EF.SOD is not CMS SignedData');
    const signedData = expect(
      parseDer(expect(wrapped, 0xa0, 'ContentInfo content').value),
      TAG.sequence,
      'SignedData',
    );
    const fields = children(signedData);
    let i = 0;
    decodeSmallInteger(fields[i++] as DerNode); // version
    expect(fields[i++], TAG.set, 'digestAlgorithms');
    const encap = children(expect(fields[i++], TAG.sequence, 'encapContentInfo'));
    if (decodeOid(encap[0] as DerNode) !== OID.ldsSecurityObject)
      throw new SodFormatError('the signed content is not an LDS security object');
    const content = expect(
      parseDer(expect(encap[1], 0xa0, 'eContent').value),
      TAG.octetString,
      'eContent',
    ).value;
    const certificates: Buffer[] = [];
    if (fields[i]?.tag === 0xa0)
      for (const c of children(fields[i++] as DerNode, 16)) certificates.push(c.bytes);
    if (fields[i]?.tag === 0xa1) i++; // crls
    const signerInfos = children(expect(fields[i], TAG.set, 'signerInfos'), 4);
    if (signerInfos.length !== 1)
      throw new SodFormatError(`EF.SOD has ${signerInfos.length} signers, not one`);
    const s = children(expect(signerInfos[0], TAG.sequence, 'SignerInfo'));
    const sid = signerIdentifier(s[1] as DerNode);
    const digestAlgorithm = hashOf(expect(s[2], TAG.sequence, 'digestAlgorithm'));
    const signed = expect(s[3], 0xa0, 'signedAttrs (Part 10 requires them)');
    const attrs = attributes(signed);
    const contentType = attrs.get(OID.contentType)?.[0];
    const messageDigest = attrs.get(OID.messageDigest)?.[0];
    if (!contentType || !messageDigest)
      throw new SodFormatError('signed attributes lack contentType or messageDigest');
    const signatureAlgorithm = expect(s[4], TAG.sequence, 'signatureAlgorithm');
    decodeOid(children(signatureAlgorithm)[0] as DerNode);
    const signature = expect(s[5], TAG.octetString, 'signature').value;

    const lds = children(expect(parseDer(content), TAG.sequence, 'LDSSecurityObject'));
    decodeSmallInteger(lds[0] as DerNode);
    const hashAlgorithm = hashOf(expect(lds[1], TAG.sequence, 'hashAlgorithm'));
    const dataGroupHashes = new Map<number, Buffer>();
    for (const entry of children(expect(lds[2], TAG.sequence, 'dataGroupHashValues'), 16)) {
      const [number, hash] = children(expect(entry, TAG.sequence, 'DataGroupHash'));
      const n = decodeSmallInteger(number as DerNode);
      if (n < 1 || n > 16 || dataGroupHashes.has(n)) throw new SodFormatError(`bad data group number ${n}`);
      dataGroupHashes.set(n, expect(hash, TAG.octetString, 'dataGroupHashValue').value);
    }
    return {
      hashAlgorithm,
      dataGroupHashes,
      content,
      certificates,
      signer: {
        sid,
        digestAlgorithm,
        signedAttributes: Buffer.concat([Buffer.from([TAG.set]), signed.bytes.subarray(1)]),
        contentType: decodeOid(contentType),
        messageDigest: expect(messageDigest, TAG.octetString, 'messageDigest').value,
        signatureAlgorithm,
        signature,
      },
    };
  } catch (error) {
    if (error instanceof SodFormatError || error instanceof UnsupportedAlgorithmError) throw error;
    // A missing element reads as undefined further on: hostile input, not a crash.
    const why = error instanceof DerError ? error.message : 'an element is missing or of the wrong type';
    throw new SodFormatError(`EF.SOD is malformed: ${why}`);
  }
}
