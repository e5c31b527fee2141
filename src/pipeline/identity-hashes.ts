// The keyed hashes of a session's identity data (session_identity_keys): a document number, and
// name + birth date, each bound to the tenant, so a tenant's sessions can be compared without the
// values being stored (docs/decisions.md "Data at rest"; the keying in platform/crypto/keyed-hash.ts).

import type { Keyring } from '../platform/crypto/encryption.ts';
import { innerDigest, keyDigest, keyedHash, keyedHashCandidates } from '../platform/crypto/keyed-hash.ts';
import type { Db } from '../platform/db/open-database.ts';
import { listUnkeyedIdentityKeys, rekeyIdentityKeys } from './pipeline-repository.ts';

export type IdentityKind = 'identity' | 'document';

const PURPOSE = 'identity-keys';
const message = (tenantId: string, kind: IdentityKind, value: string) =>
  `${tenantId}\u0000${kind}\u0000${value}`;

/** The hash to store for a session, with the id of the key it is keyed with. */
export const identityKeyHash = (keyring: Keyring, tenantId: string, kind: IdentityKind, value: string) =>
  keyedHash(keyring, PURPOSE, message(tenantId, kind, value));

/** The value's hash under every key of the keyring (key id → hash): what a lookup compares with. */
export const identityKeyCandidates = (
  keyring: Keyring,
  tenantId: string,
  kind: IdentityKind,
  value: string,
) => keyedHashCandidates(keyring, PURPOSE, message(tenantId, kind, value));

/** The plain digest rows held before keyed hashes (migration 0008); tests build such rows with it. */
export const legacyIdentityDigest = (tenantId: string, kind: IdentityKind, value: string) =>
  innerDigest(message(tenantId, kind, value));

const REHASH_BATCH = 500;

/**
 * Rehashes rows still holding a plain digest (written before migration 0008) under the current
 * key: HMAC of the stored digest, which is exactly what identityKeyHash gives for the same value.
 * Run when a process opens the platform, before it serves or takes a job; idempotent and safe for
 * several processes at once (a row is rewritten only while its hash_key_id is still NULL).
 * Returns the number of rows rehashed.
 */
export async function rehashLegacyIdentityKeys(db: Db, keyring: Keyring): Promise<number> {
  const keyId = keyring.currentId;
  const rekey = (digest: string | null) => digest && keyDigest(keyring, keyId, PURPOSE, digest)!;
  let total = 0;
  for (;;) {
    const rows = await listUnkeyedIdentityKeys(db, REHASH_BATCH);
    if (rows.length === 0) return total;
    total += await rekeyIdentityKeys(
      db,
      keyId,
      rows.map((row) => ({
        sessionId: row.session_id,
        documentNumberHash: rekey(row.document_number_hash),
        identityHash: rekey(row.identity_hash),
      })),
    );
    if (rows.length < REHASH_BATCH) return total;
  }
}
