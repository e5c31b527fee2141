// What a check job reads: the session's stored inputs (interface §1: document images, the live
// check's reference image, the user's input), decrypted from the database and the blob store.
import { createHash } from 'node:crypto';
import { captureOcrBlobKey, listDocuments, type UserInput, userInputContext } from '../hosted-flow/index.ts';
import type { OcrAnswers } from '../inference/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { decryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import type { PreRegisteredInfo, SessionRow } from '../sessions/index.ts';
import { preRegisteredInfoContext } from '../sessions/index.ts';

/** A stored input is missing: the submission promised it, so retrying will not bring it back. */
export class MissingInputError extends Error {
  readonly isPermanent = true;
  override name = 'MissingInputError';
}

export const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export async function loadDocumentImages(platform: Platform, session: SessionRow) {
  const store = openBlobStore(platform.config, platform.keyring);
  const rows = await listDocuments(platform.database.db, session.id);
  const read = async (side: 'front' | 'back' | 'tilted') => {
    const row = rows.find((r) => r.side === side);
    if (!row) return undefined;
    const bytes = await store.getBlob(row.blob_key);
    if (!bytes) throw new MissingInputError(`document ${side} blob is missing`);
    return bytes;
  };
  const front = await read('front');
  if (!front) throw new MissingInputError('no document front side was uploaded');
  // tilted: the thickness capture, when the tenant asks for it (documentSpoofCheck reads it).
  return { front, back: await read('back'), tilted: await read('tilted') };
}

/**
 * The OCR passes the capture check made on the stored front (null: none kept). runOcrWithAnswers
 * replays them only when they were made on this very photo by this check's version.
 */
export async function loadCaptureOcrAnswers(
  platform: Platform,
  session: SessionRow,
): Promise<OcrAnswers | null> {
  const front = (await listDocuments(platform.database.db, session.id)).find((r) => r.side === 'front');
  if (!front) return null;
  const bytes = await openBlobStore(platform.config, platform.keyring).getBlob(
    captureOcrBlobKey(front.blob_key),
  );
  if (!bytes) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as OcrAnswers;
  } catch {
    // A kept reading that cannot be read back is no reading: the check reads the photo itself.
    return null;
  }
}

export async function loadReferenceImage(platform: Platform, session: SessionRow): Promise<Buffer | null> {
  if (!session.liveness_reference_blob) return null;
  const bytes = await openBlobStore(platform.config, platform.keyring).getBlob(
    session.liveness_reference_blob,
  );
  if (!bytes) throw new MissingInputError('liveness reference image blob is missing');
  return bytes;
}

export function readUserInput(platform: Platform, session: SessionRow): UserInput | null {
  return session.user_input_enc
    ? decryptJson<UserInput>(platform.keyring, session.user_input_enc, userInputContext(session.id))
    : null;
}

export function readPreRegisteredInfo(platform: Platform, session: SessionRow): PreRegisteredInfo | null {
  return session.pre_registered_info_enc
    ? decryptJson<PreRegisteredInfo>(
        platform.keyring,
        session.pre_registered_info_enc,
        preRegisteredInfoContext(session.id),
      )
    : null;
}

/**
 * The fields of `fields` that can be compared with what the document prints. A passport prints no
 * address: its 本籍 line is the registered domicile, a prefecture in romaji, not where the holder
 * lives, so a typed or pre-registered address has nothing to be compared with.
 */
export function comparableWithDocument<T extends { address?: string | undefined }>(
  fields: T,
  documentType: string | null,
): T {
  return documentType === 'passport' ? { ...fields, address: undefined } : fields;
}
