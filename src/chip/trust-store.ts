// The CSCA trust store: certificates the operator configures (from their state's CSCA or the
// ICAO PKD master lists they have checked). The project ships none: a trust anchor is a decision
// of the operator, who can vouch for where it came from.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

export class TrustStoreError extends Error {
  override name = 'TrustStoreError';
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM text (one or a bundle); each must be a CA certificate. */
export function parseTrustAnchors(pem: string, label: string): X509Certificate[] {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new TrustStoreError(`${label} holds no PEM certificate`);
  return blocks.map((block, i) => {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
      void cert.publicKey;
    } catch {
      throw new TrustStoreError(`${label}: certificate ${i + 1} cannot be parsed`);
    }
    if (!cert.ca)
      throw new TrustStoreError(`${label}: ${cert.subject.replace(/\n/g, ', ')} is not a CA certificate`);
    return cert;
  });
}

/** The configured trust store (config.chipCscaFiles): every file read and parsed, or one clear error. */
export function loadTrustStore(files: readonly string[]): X509Certificate[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new TrustStoreError(`MIMOTO_CHIP_CSCA_FILES: ${file} cannot be read`);
    }
    return parseTrustAnchors(text, `MIMOTO_CHIP_CSCA_FILES: ${file}`);
  });
}
