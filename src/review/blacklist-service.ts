// Tenant blacklist administration (docs/console-api.md): tenant admins create, edit
// and delete entries; each change writes an audit row that names the conditions but never their
// values (the audit log is not encrypted; the entries are).

import { recordAudit } from '../actors/index.ts';
import {
  type BlacklistConditions,
  type BlacklistEntry,
  countBlacklistRows,
  deleteBlacklistRow,
  findBlacklistRow,
  insertBlacklistRow,
  listBlacklistEntries,
  MAX_BLACKLIST_ENTRIES,
  openBlacklistEntry,
  sealBlacklistEntry,
  updateBlacklistRow,
} from '../checks/fraud-signals/index.ts';
import { descriptorContext, findDescriptor } from '../pipeline/index.ts';
import { decryptJson } from '../platform/crypto/encryption.ts';
import { randomBase62 } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession } from '../sessions/index.ts';
import type { BlacklistBody } from './review.schemas.ts';

export interface Admin {
  id: string;
  email: string;
  tenantId: string;
  ip?: string | null | undefined;
}

export const blacklistEntryView = (e: BlacklistEntry) => ({
  entryId: e.id,
  label: e.label,
  matchMode: e.matchMode,
  action: e.action,
  lastName: e.conditions.lastName ?? null,
  firstName: e.conditions.firstName ?? null,
  birthDate: e.conditions.birthDate ?? null,
  documentNumber: e.conditions.documentNumber ?? null,
  hasFace: e.face !== null,
  faceFromSessionId: e.faceFromSessionId,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

/** What the audit row keeps of an entry: which conditions it has, not their values. */
const auditView = (e: BlacklistEntry) => ({
  label: e.label,
  matchMode: e.matchMode,
  action: e.action,
  conditions: [
    ...(e.conditions.lastName ? ['name_birth_date'] : []),
    ...(e.conditions.documentNumber ? ['document_number'] : []),
    ...(e.face ? ['face'] : []),
  ],
});

const invalid = (path: string, message: string) =>
  new AppError('ValidationFailed', `The request is not valid: ${path} ${message}`, [{ path, message }]);

function conditionsOf(body: BlacklistBody): BlacklistConditions {
  const named = [body.lastName, body.firstName, body.birthDate].filter((v) => v !== undefined).length;
  if (named !== 0 && named !== 3) {
    throw invalid('/lastName', 'lastName, firstName and birthDate are one condition: give all three or none');
  }
  if (named === 0 && !body.documentNumber && !body.faceFromSessionId) {
    throw invalid(
      '/',
      'needs at least one condition: name + birth date, documentNumber or faceFromSessionId',
    );
  }
  return {
    ...(named === 3 ? { lastName: body.lastName, firstName: body.firstName, birthDate: body.birthDate } : {}),
    ...(body.documentNumber ? { documentNumber: body.documentNumber } : {}),
  };
}

/** The selfie face of one of the tenant's sessions, as the fraud check stored it. */
async function faceOf(
  platform: Platform,
  db: Db,
  tenantId: string,
  sessionId: string,
): Promise<Float32Array> {
  const session = await findSession(db, sessionId);
  const stored = session?.tenant_id === tenantId ? await findDescriptor(db, sessionId, 'selfie') : undefined;
  if (!stored) throw invalid('/faceFromSessionId', 'names no session of this tenant with a described selfie');
  return Float32Array.from(
    decryptJson<number[]>(platform.keyring, stored.descriptor_enc, descriptorContext(sessionId, 'selfie')),
  );
}

export async function listBlacklist(platform: Platform, tenantId: string) {
  return (await listBlacklistEntries(platform, platform.database.db, tenantId)).map(blacklistEntryView);
}

export async function createBlacklistEntry(platform: Platform, admin: Admin, body: BlacklistBody) {
  const conditions = conditionsOf(body);
  return platform.database.db.transaction().execute(async (trx) => {
    if ((await countBlacklistRows(trx, admin.tenantId)) >= MAX_BLACKLIST_ENTRIES) {
      throw invalid('/', `the blacklist holds at most ${MAX_BLACKLIST_ENTRIES} entries`);
    }
    const now = platform.now();
    const entry: BlacklistEntry = {
      id: `bl_${randomBase62(22)}`,
      tenantId: admin.tenantId,
      label: body.label,
      matchMode: body.matchMode,
      action: body.action,
      conditions,
      face: body.faceFromSessionId
        ? await faceOf(platform, trx, admin.tenantId, body.faceFromSessionId)
        : null,
      faceFromSessionId: body.faceFromSessionId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await insertBlacklistRow(trx, sealBlacklistEntry(platform, entry));
    await audit(platform, trx, admin, 'blacklist.create', entry.id, undefined, auditView(entry));
    return blacklistEntryView(entry);
  });
}

export async function updateBlacklistEntry(
  platform: Platform,
  admin: Admin,
  entryId: string,
  body: BlacklistBody,
) {
  const conditions = conditionsOf(body);
  return platform.database.db.transaction().execute(async (trx) => {
    const before = openBlacklistEntry(platform, await lockEntry(trx, admin.tenantId, entryId));
    // The face stays as it was while it names the same session; a new session is described again.
    const face =
      body.faceFromSessionId === undefined
        ? null
        : body.faceFromSessionId === before.faceFromSessionId
          ? before.face
          : await faceOf(platform, trx, admin.tenantId, body.faceFromSessionId);
    const entry: BlacklistEntry = {
      ...before,
      label: body.label,
      matchMode: body.matchMode,
      action: body.action,
      conditions,
      face,
      faceFromSessionId: body.faceFromSessionId ?? null,
      updatedAt: platform.now(),
    };
    await updateBlacklistRow(trx, sealBlacklistEntry(platform, entry));
    await audit(platform, trx, admin, 'blacklist.update', entryId, auditView(before), auditView(entry));
    return blacklistEntryView(entry);
  });
}

export async function deleteBlacklistEntry(platform: Platform, admin: Admin, entryId: string): Promise<void> {
  await platform.database.db.transaction().execute(async (trx) => {
    const before = openBlacklistEntry(platform, await lockEntry(trx, admin.tenantId, entryId));
    await deleteBlacklistRow(trx, admin.tenantId, entryId);
    await audit(platform, trx, admin, 'blacklist.delete', entryId, auditView(before), undefined);
  });
}

async function lockEntry(trx: Db, tenantId: string, entryId: string) {
  const row = await findBlacklistRow(trx, tenantId, entryId);
  if (!row) throw new AppError('NotFound', 'No blacklist entry with that id');
  return row;
}

function audit(
  platform: Platform,
  trx: Db,
  admin: Admin,
  action: string,
  entryId: string,
  before: unknown,
  after: unknown,
) {
  return recordAudit(trx, platform, {
    actor: admin.email,
    actorUserId: admin.id,
    tenantId: admin.tenantId,
    action,
    targetType: 'blacklist_entry',
    targetId: entryId,
    before,
    after,
    ip: admin.ip ?? null,
  });
}
