// Search by name, birth date and document number within one tenant (docs/console-api.md "Sessions"):
// the document number through the keyed identity hashes (session_identity_keys; the number itself
// is never stored in the clear), names and birth dates by decrypting the tenant's own sessions'
// pre-registered data, user input and OCR reading. Both are bound to the tenant: the hashes are
// keyed with the tenant id in the message, and only the tenant's rows are ever decrypted.
import { userInputContext } from '../hosted-flow/index.ts';
import { normalizeJapaneseText, parseJapaneseDate } from '../japanese/index.ts';
import { identityKeyCandidates, resultContext } from '../pipeline/index.ts';
import { decryptJson, type Keyring } from '../platform/crypto/encryption.ts';
import { preRegisteredInfoContext } from '../sessions/index.ts';

export interface IdentityQuery {
  name?: string | undefined;
  birthDate?: string | undefined;
}

/** The name and birth date fields of any of the three sources (all optional, all free text). */
export interface IdentityValues {
  lastName?: string | undefined;
  firstName?: string | undefined;
  lastNameKana?: string | undefined;
  firstNameKana?: string | undefined;
  birthDate?: string | undefined;
}

/**
 * The number's hash under every key of the keyring, as the fraud check stores it (whitespace
 * dropped, upper case); hyphens are tried both kept and dropped, since people type them.
 */
export function documentNumberHashes(keyring: Keyring, tenantId: string, documentNumber: string): string[] {
  const compact = documentNumber.replace(/\s+/g, '').toUpperCase();
  const variants = new Set([compact, compact.replace(/-/g, '')]);
  return [...variants].flatMap((value) => [
    ...identityKeyCandidates(keyring, tenantId, 'document', value).values(),
  ]);
}

const joined = (a: string | undefined, b: string | undefined) =>
  normalizeJapaneseText(`${a ?? ''}${b ?? ''}`);

/** Family name first and given name first, in kanji and in kana: a name is written either way. */
function nameForms(values: IdentityValues): string[] {
  return [
    joined(values.lastName, values.firstName),
    joined(values.firstName, values.lastName),
    joined(values.lastNameKana, values.firstNameKana),
    joined(values.firstNameKana, values.lastNameKana),
  ].filter((form) => form.length > 0);
}

/**
 * True when some source holds the name (a part of it: a family name alone finds the person, after
 * Japanese normalisation: width, kana, old and new kanji, spaces) and some source the birth date.
 */
export function matchesIdentity(query: IdentityQuery, sources: readonly IdentityValues[]): boolean {
  if (query.name !== undefined) {
    const wanted = normalizeJapaneseText(query.name);
    if (wanted.length === 0) return false;
    if (!sources.some((source) => nameForms(source).some((form) => form.includes(wanted)))) return false;
  }
  if (query.birthDate !== undefined) {
    const wanted = query.birthDate;
    const isSameDate = (value: string | undefined) =>
      typeof value === 'string' && parseJapaneseDate(value) === wanted;
    if (!sources.some((source) => isSameDate(source.birthDate))) return false;
  }
  return true;
}

/** The identity sources of one session row, decrypted; erased ones (null) give nothing. */
export function identitySources(
  keyring: Keyring,
  row: { id: string; pre_registered_info_enc: string | null; user_input_enc: string | null },
  ocrResultEnc: string | undefined,
): IdentityValues[] {
  const sources: IdentityValues[] = [];
  if (row.pre_registered_info_enc)
    sources.push(decryptJson(keyring, row.pre_registered_info_enc, preRegisteredInfoContext(row.id)));
  if (row.user_input_enc) sources.push(decryptJson(keyring, row.user_input_enc, userInputContext(row.id)));
  if (ocrResultEnc) {
    const envelope = decryptJson<{ result?: { payload?: IdentityValues } }>(
      keyring,
      ocrResultEnc,
      resultContext(row.id, 'ocr'),
    );
    if (envelope.result?.payload) sources.push(envelope.result.payload);
  }
  return sources;
}

/**
 * The person's name for a list row: as typed in the form (kanji or Latin, and its kana reading),
 * else the tenant's pre-registered one; null before either exists or after erasure.
 */
export function listedName(
  keyring: Keyring,
  row: { id: string; pre_registered_info_enc: string | null; user_input_enc: string | null },
): { name: string; kana: string | null } | null {
  const sources: IdentityValues[] = [];
  if (row.user_input_enc) sources.push(decryptJson(keyring, row.user_input_enc, userInputContext(row.id)));
  if (row.pre_registered_info_enc)
    sources.push(decryptJson(keyring, row.pre_registered_info_enc, preRegisteredInfoContext(row.id)));
  const words = (...parts: (string | undefined)[]) =>
    parts.filter((p) => p !== undefined && p.trim() !== '').join(' ');
  for (const source of sources) {
    const name = words(source.lastName, source.firstName);
    if (name === '') continue;
    const kana = words(source.lastNameKana, source.firstNameKana);
    return { name, kana: kana === '' ? null : kana };
  }
  return null;
}
