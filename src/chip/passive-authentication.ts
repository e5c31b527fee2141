// Passive Authentication, ICAO 9303 Part 11 §5.1: (1) the Document Signer certificate chains to a
// CSCA the operator trusts, (2) the SOD's signature verifies with the DS key, (3) each data group
// read hashes to the value the SOD holds. Each part is reported on its own so a tenant can tell a
// forged chip (signature, chain) from an altered file (hash). Revocation (CRLs from the ICAO PKD)
// is not checked here: the result says so rather than implying it.
import { createHash, X509Certificate } from 'node:crypto';
import { type HashName, UnsupportedAlgorithmError, verifySignature } from './algorithms.ts';
import { type ParsedSod, parseSod } from './sod.ts';

export type PassiveAuthenticationFailure =
  | 'chip_signature_invalid'
  | 'chip_chain_untrusted'
  | 'chip_data_group_hash_mismatch'
  | 'chip_data_group_missing';

export interface PassiveAuthenticationResult {
  valid: boolean;
  chainValid: boolean;
  signatureValid: boolean;
  /** Per data group given: its hash equals the SOD's. */
  dataGroups: Record<string, boolean>;
  failures: PassiveAuthenticationFailure[];
  hashAlgorithm: HashName;
  documentSigner: { subject: string; issuer: string; serialNumber: string; validTo: string } | null;
  /** Why the chain did not validate, for operators. */
  chainDetail?: string;
}

export interface PassiveAuthenticationInput {
  sod: Buffer;
  /** The data groups' files as read (tag included), by number. */
  dataGroups: Record<number, Buffer>;
  /** The operator's CSCA certificates. */
  trustAnchors: readonly X509Certificate[];
  now: Date;
}

const within = (cert: X509Certificate, now: Date) =>
  new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);

/** The certificate the SignerInfo names, among those the SOD carries. */
function signerCertificate(sod: ParsedSod): X509Certificate | null {
  const certs = sod.certificates.flatMap((der) => {
    try {
      const cert = new X509Certificate(der);
      // Node parses the key lazily: a certificate whose key does not decode is no signer.
      void cert.publicKey;
      return [cert];
    } catch {
      return [];
    }
  });
  const { sid } = sod.signer;
  const serial = sid.serial
    ? sid.serial
        .toString('hex')
        .replace(/^(00)+/, '')
        .toUpperCase()
    : undefined;
  return (
    certs.find(
      (c) => serial !== undefined && c.serialNumber.replace(/^(00)+/, '').toUpperCase() === serial,
    ) ?? (certs.length === 1 ? (certs[0] as X509Certificate) : null)
  );
}

/** The DS certificate is issued by one of the anchors, its signature verifies, both are in force. */
function chainToAnchor(ds: X509Certificate, anchors: readonly X509Certificate[], now: Date): string | null {
  if (anchors.length === 0) return 'no CSCA is configured';
  if (!within(ds, now)) return 'the Document Signer certificate is not in force';
  const issuers = anchors.filter((a) => ds.checkIssued(a));
  if (issuers.length === 0) return 'no configured CSCA issued the Document Signer certificate';
  for (const csca of issuers) {
    if (!csca.ca) continue;
    let verified = false;
    try {
      verified = ds.verify(csca.publicKey);
    } catch {
      verified = false;
    }
    if (!verified) continue;
    if (!within(csca, now)) return 'the issuing CSCA certificate is not in force';
    return null;
  }
  return "the Document Signer certificate's signature does not verify with the CSCA named as its issuer";
}

/** Throws SodFormatError (unusable SOD) or UnsupportedAlgorithmError; otherwise reports each part. */
export function verifyPassiveAuthentication(input: PassiveAuthenticationInput): PassiveAuthenticationResult {
  const sod = parseSod(input.sod);
  const failures: PassiveAuthenticationFailure[] = [];
  const ds = signerCertificate(sod);

  let signatureValid = false;
  if (ds) {
    const digest = createHash(sod.signer.digestAlgorithm).update(sod.content).digest();
    signatureValid =
      sod.signer.contentType === '2.23.136.1.1.1' &&
      digest.equals(sod.signer.messageDigest) &&
      verifySignature(
        sod.signer.signatureAlgorithm,
        sod.signer.digestAlgorithm,
        ds.publicKey,
        sod.signer.signedAttributes,
        sod.signer.signature,
      );
  }
  if (!signatureValid) failures.push('chip_signature_invalid');

  const chainDetail = ds
    ? chainToAnchor(ds, input.trustAnchors, input.now)
    : 'the SOD carries no Document Signer certificate';
  const chainValid = chainDetail === null;
  if (!chainValid) failures.push('chip_chain_untrusted');

  const dataGroups: Record<string, boolean> = {};
  for (const [n, bytes] of Object.entries(input.dataGroups)) {
    const expected = sod.dataGroupHashes.get(Number(n));
    dataGroups[n] = !!expected && createHash(sod.hashAlgorithm).update(bytes).digest().equals(expected);
  }
  if (Object.values(dataGroups).some((ok) => !ok)) failures.push('chip_data_group_hash_mismatch');
  if (!(1 in input.dataGroups)) failures.push('chip_data_group_missing');

  return {
    valid: failures.length === 0,
    chainValid,
    signatureValid,
    dataGroups,
    failures,
    hashAlgorithm: sod.hashAlgorithm,
    documentSigner: ds
      ? { subject: ds.subject, issuer: ds.issuer, serialNumber: ds.serialNumber, validTo: ds.validTo }
      : null,
    ...(chainDetail ? { chainDetail } : {}),
  };
}

export { UnsupportedAlgorithmError };
