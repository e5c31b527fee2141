// What the service concludes from one chip reading a reader client handed it for a session: the
// files and the Active Authentication answer, checked against the operator's trust store and the
// nonce the service issued for that session. The result says which method was used and what was
// verified — signature, chain, each data group, anti-clone, revocation ("not_checked": no
// revocation source is configured, and that is never reported as valid) — with a reason code for
// each failure. Active Authentication counts only with DG15 covered by the SOD's hashes: a
// reader could otherwise put its own key in DG15 and answer with it.
import type { X509Certificate } from 'node:crypto';
import { verifyActiveAuthentication } from './active-authentication.ts';
import { type ChipFace, type ChipMrz, parseDg1, parseDg2 } from './lds.ts';
import { CHIP_FILE_LIMITS } from './limits.ts';
import { verifyPassiveAuthentication } from './passive-authentication.ts';

export type ChipReasonCode =
  | 'chip_signature_invalid'
  | 'chip_chain_untrusted'
  | 'chip_data_group_hash_mismatch'
  | 'chip_data_group_missing'
  | 'chip_clone_suspected'
  | 'chip_anti_clone_unavailable'
  | 'chip_mrz_invalid';

export interface ChipReading {
  sod: Buffer;
  dataGroups: Partial<Record<1 | 2 | 14 | 15, Buffer>>;
  /** The chip's INTERNAL AUTHENTICATE answer to the session's nonce. */
  activeAuthenticationSignature?: Buffer;
}

export interface ChipVerification {
  method: 'ic_chip';
  documentKind: 'icao_emrtd';
  /** Every check held: signature, chain, each data group's hash, anti-clone, the MRZ's check digits. */
  verified: boolean;
  checks: {
    signature: boolean;
    chain: boolean;
    dataGroups: Record<string, boolean>;
    antiClone: 'active_authentication' | 'failed' | 'not_available';
    revocation: 'not_checked';
  };
  reasons: ChipReasonCode[];
  mrz: ChipMrz | null;
  face: { format: ChipFace['format']; bytes: number } | null;
  documentSigner: { subject: string; issuer: string; serialNumber: string } | null;
}

/** A reading that cannot be verified at all: the caller answers 4xx and stores nothing. */
export class ChipReadingRejected extends Error {
  override name = 'ChipReadingRejected';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function checkSizes(reading: ChipReading): void {
  const sized: [string, Buffer | undefined, number][] = [
    ['sod', reading.sod, CHIP_FILE_LIMITS.sod],
    ['dataGroups.1', reading.dataGroups[1], CHIP_FILE_LIMITS.dg1],
    ['dataGroups.2', reading.dataGroups[2], CHIP_FILE_LIMITS.dg2],
    ['dataGroups.14', reading.dataGroups[14], CHIP_FILE_LIMITS.dg14],
    ['dataGroups.15', reading.dataGroups[15], CHIP_FILE_LIMITS.dg15],
    [
      'activeAuthenticationSignature',
      reading.activeAuthenticationSignature,
      CHIP_FILE_LIMITS.activeAuthenticationSignature,
    ],
  ];
  for (const [field, bytes, limit] of sized)
    if (bytes && bytes.length > limit)
      throw new ChipReadingRejected(field, `${field} is ${bytes.length} bytes, more than ${limit}`);
  if (!reading.dataGroups[1]) throw new ChipReadingRejected('dataGroups.1', 'DG1 (the MRZ) is required');
}

/**
 * Verifies a reading. `nonce` is the one this service issued for the session (null when none was
 * issued: anti-clone is then not available). Throws ChipReadingRejected for an unusable reading.
 */
export function verifyChipReading(
  reading: ChipReading,
  context: { trustAnchors: readonly X509Certificate[]; nonce: Buffer | null; now: Date },
): ChipVerification {
  checkSizes(reading);
  const dataGroups: Record<number, Buffer> = {};
  for (const [n, bytes] of Object.entries(reading.dataGroups)) if (bytes) dataGroups[Number(n)] = bytes;
  let pa: ReturnType<typeof verifyPassiveAuthentication>;
  try {
    pa = verifyPassiveAuthentication({
      sod: reading.sod,
      dataGroups,
      trustAnchors: context.trustAnchors,
      now: context.now,
    });
  } catch (error) {
    throw new ChipReadingRejected('sod', (error as Error).message);
  }
  const reasons: ChipReasonCode[] = [...pa.failures];

  let antiClone: ChipVerification['checks']['antiClone'] = 'not_available';
  const dg15 = reading.dataGroups[15];
  if (dg15 && pa.dataGroups['15'] && context.nonce && reading.activeAuthenticationSignature) {
    const aa = verifyActiveAuthentication({
      dg15,
      ...(reading.dataGroups[14] && pa.dataGroups['14'] ? { dg14: reading.dataGroups[14] } : {}),
      nonce: context.nonce,
      signature: reading.activeAuthenticationSignature,
    });
    antiClone = aa.valid
      ? 'active_authentication'
      : aa.failure === 'chip_clone_suspected'
        ? 'failed'
        : 'not_available';
  } else if (dg15 && pa.dataGroups['15'] && context.nonce) {
    // The chip has an AA key but the reading brings no answer: as good as a clone's silence.
    antiClone = 'failed';
  }
  if (antiClone === 'failed') reasons.push('chip_clone_suspected');
  if (antiClone === 'not_available') reasons.push('chip_anti_clone_unavailable');

  let mrz: ChipMrz | null = null;
  try {
    mrz = parseDg1(reading.dataGroups[1] as Buffer);
  } catch {
    mrz = null;
  }
  if (!mrz?.valid) reasons.push('chip_mrz_invalid');
  let face: ChipVerification['face'] = null;
  if (reading.dataGroups[2]) {
    try {
      const f = parseDg2(reading.dataGroups[2]);
      face = { format: f.format, bytes: f.image.length };
    } catch {
      face = null;
    }
  }
  return {
    method: 'ic_chip',
    documentKind: 'icao_emrtd',
    verified: reasons.length === 0,
    checks: {
      signature: pa.signatureValid,
      chain: pa.chainValid,
      dataGroups: pa.dataGroups,
      antiClone,
      revocation: 'not_checked',
    },
    reasons,
    mrz,
    face,
    documentSigner: pa.documentSigner
      ? {
          subject: pa.documentSigner.subject,
          issuer: pa.documentSigner.issuer,
          serialNumber: pa.documentSigner.serialNumber,
        }
      : null,
  };
}
