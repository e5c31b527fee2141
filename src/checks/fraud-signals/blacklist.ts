// Tenant blacklists (docs/console-api.md): entries by name + birth date, document number or face,
// each with matchMode exact|fuzzy and action reject|review. Conditions are personal data and stay
// encrypted at rest (docs/decisions.md "Data at rest"); a tenant's entries are few, so they are decrypted
// and compared in memory. An entry matches when ANY of its conditions does (each one identifies the
// person on its own); the pipeline hands the hits to analyzeFraudSignals.
import { normalizeJapaneseText } from '../../japanese/index.ts';
import { decryptJson, encryptJson } from '../../platform/crypto/encryption.ts';
import type { Db } from '../../platform/db/open-database.ts';
import type { Platform } from '../../platform/platform.ts';
import { editDistance } from '../../platform/text/edit-distance.ts';
import { faceSimilarity } from '../face-match/index.ts';
import type { BlacklistHit } from './analyze-fraud-signals.ts';
import { type BlacklistEntryRow, listBlacklistRows } from './blacklist-repository.ts';

export interface BlacklistConditions {
  /** lastName, firstName and birthDate go together: a name alone is too common to blacklist. */
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  documentNumber?: string;
}

export interface BlacklistEntry {
  id: string;
  tenantId: string;
  label: string;
  matchMode: 'exact' | 'fuzzy';
  action: 'reject' | 'review';
  conditions: BlacklistConditions;
  face: Float32Array | null;
  faceFromSessionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface BlacklistLookup {
  tenantId: string;
  lastName?: string | undefined;
  firstName?: string | undefined;
  birthDate?: string | undefined;
  documentNumber?: string | undefined;
  selfieDescriptor?: Float32Array | null | undefined;
  /** Calibrated similarity (face-match) from which a face counts: exact mode, and fuzzy mode. */
  faceSimilarity: { exact: number; fuzzy: number };
}

const conditionsContext = (id: string) => `blacklist_entries.conditions_enc:${id}`;
const faceContext = (id: string) => `blacklist_entries.face_descriptor_enc:${id}`;

/** Document numbers compare without spaces, hyphens or case (OCR and typed forms differ so). */
export const normalizeDocumentNumber = (value: string) =>
  value
    .normalize('NFKC')
    .replace(/[\s\-‐－ー]+/g, '')
    .toUpperCase();

export function sealBlacklistEntry(
  platform: Pick<Platform, 'keyring'>,
  entry: BlacklistEntry,
): BlacklistEntryRow {
  return {
    id: entry.id,
    tenant_id: entry.tenantId,
    label: entry.label,
    match_mode: entry.matchMode,
    action: entry.action,
    conditions_enc: encryptJson(platform.keyring, entry.conditions, conditionsContext(entry.id)),
    face_descriptor_enc: entry.face
      ? encryptJson(platform.keyring, [...entry.face], faceContext(entry.id))
      : null,
    face_from_session_id: entry.faceFromSessionId,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  };
}

export function openBlacklistEntry(
  platform: Pick<Platform, 'keyring'>,
  row: BlacklistEntryRow,
): BlacklistEntry {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    label: row.label,
    matchMode: row.match_mode,
    action: row.action,
    conditions: decryptJson<BlacklistConditions>(
      platform.keyring,
      row.conditions_enc,
      conditionsContext(row.id),
    ),
    face: row.face_descriptor_enc
      ? Float32Array.from(
          decryptJson<number[]>(platform.keyring, row.face_descriptor_enc, faceContext(row.id)),
        )
      : null,
    faceFromSessionId: row.face_from_session_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listBlacklistEntries(platform: Pick<Platform, 'keyring'>, db: Db, tenantId: string) {
  return (await listBlacklistRows(db, tenantId)).map((row) => openBlacklistEntry(platform, row));
}

/**
 * exact: equal after Japanese normalisation (NFKC, width, kana, old/new kanji, spaces).
 * fuzzy: also one edit away (a misread or mistyped character) once the text is long enough that
 * one edit does not turn one common name into another.
 */
function sameText(a: string, b: string, mode: 'exact' | 'fuzzy', minFuzzyLength: number): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (a === b) return true;
  return (
    mode === 'fuzzy' && Math.min([...a].length, [...b].length) >= minFuzzyLength && editDistance(a, b, 1) <= 1
  );
}

/** Which condition of `entry` the lookup meets, if any. */
export function matchBlacklistEntry(
  entry: BlacklistEntry,
  lookup: BlacklistLookup,
): BlacklistHit['on'] | null {
  const c = entry.conditions;
  const mode = entry.matchMode;
  if (c.lastName && c.firstName && c.birthDate && lookup.lastName && lookup.firstName && lookup.birthDate) {
    const name = (last: string, first: string) => normalizeJapaneseText(`${last}${first}`);
    if (
      c.birthDate === lookup.birthDate &&
      sameText(name(c.lastName, c.firstName), name(lookup.lastName, lookup.firstName), mode, 3)
    )
      return 'name_birth_date';
  }
  if (c.documentNumber && lookup.documentNumber) {
    const a = normalizeDocumentNumber(c.documentNumber);
    const b = normalizeDocumentNumber(lookup.documentNumber);
    if (sameText(a, b, mode, 8)) return 'document_number';
  }
  if (entry.face && lookup.selfieDescriptor) {
    const similarity = faceSimilarity(entry.face, lookup.selfieDescriptor);
    if (similarity >= lookup.faceSimilarity[mode]) return 'face';
  }
  return null;
}

export async function findBlacklistHits(
  platform: Platform,
  lookup: BlacklistLookup,
): Promise<BlacklistHit[]> {
  const entries = await listBlacklistEntries(platform, platform.database.db, lookup.tenantId);
  const hits: BlacklistHit[] = [];
  for (const entry of entries) {
    const on = matchBlacklistEntry(entry, lookup);
    if (on) hits.push({ id: entry.id, matchMode: entry.matchMode, action: entry.action, on });
  }
  return hits;
}
