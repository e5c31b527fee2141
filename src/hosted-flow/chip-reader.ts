// The IC-chip method of the hosted flow (docs/ic-chip.md, docs/hosted-flow-api.md "IC chip"). A
// browser cannot send APDUs to a chip (Web NFC reads NDEF tags only), so the page hands the session
// to a chip reader — a phone app over NFC, or a PC/SC reader's helper — through a one-time code
// shown as a QR code and a deep link. The reader, holding the code:
//  1. takes a nonce for Active Authentication (ICAO 9303 Part 11 §6.1), issued by this service for
//     this session: 8 bytes from the CSPRNG, short-lived, single use;
//  2. reads the chip (BAC with the MRZ the person types or scans: the chip's files are readable only
//     with a key derived from the document number, birth date and expiry date, §4.3) and has it sign
//     the nonce (INTERNAL AUTHENTICATE);
//  3. hands in EF.SOD, the data groups and the chip's answer, naming the nonce.
// The reading is judged usable here (sizes, DG1 and DG2 present, an SOD that parses) and stored in
// one statement, or refused with its reason and nothing stored; the nonce is spent either way, so an
// answer recorded once cannot be handed in again. Whether it is genuine — signature, chain, hashes,
// anti-clone — the pipeline's icChip check decides against the operator's trust store.
import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import qrcode from 'qrcode-generator';
import {
  CHIP_FILE_LIMITS,
  type ChipReading,
  ChipReadingRejected,
  chipIdentity,
  parseDg1,
  verifyChipReading,
} from '../chip/index.ts';
import type { VerificationMethod } from '../domain/index.ts';
import { decryptJson, encryptJson } from '../platform/crypto/encryption.ts';
import { randomBase62, sha256Hex } from '../platform/crypto/random-id.ts';
import type { Db } from '../platform/db/open-database.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { findSession, type SessionRow } from '../sessions/index.ts';
import { findTenant, tenantVerificationMethods } from '../tenants/index.ts';
import { type FlowContext, requireOpenFlow } from './flow-session.ts';

/** Long enough to install or open the app, type the MRZ and hold the card to the phone. */
export const CHIP_READER_VALIDITY_MS = 10 * 60_000;
/** A nonce is asked for right before the chip is read: a couple of minutes is plenty. */
export const CHIP_NONCE_VALIDITY_MS = 2 * 60_000;
const CODE_LENGTH = 32; // base62: 190 bits
export const CHIP_READER_CODE = /^[A-Za-z0-9]{32}$/;
/** The scheme a reader app registers for its deep link. */
export const CHIP_READER_SCHEME = 'mimoto-chip';

const codeHash = (code: string) => sha256Hex(`chip-reader:${code}`);
export const chipReadingContext = (sessionId: string) => `chip_readings.reading_enc:${sessionId}`;

/** The methods this session offers: the create request's, else the tenant's default (image). */
export function offeredMethods(
  session: Pick<SessionRow, 'verification_methods'>,
  tenantSettings: Record<string, unknown>,
): VerificationMethod[] {
  const asked = session.verification_methods;
  return asked && asked.length > 0
    ? (asked as VerificationMethod[])
    : tenantVerificationMethods(tenantSettings);
}

async function requireChipOffered(platform: Platform, session: SessionRow): Promise<void> {
  const tenant = await findTenant(platform.database.db, session.tenant_id);
  if (!offeredMethods(session, tenant?.settings ?? {}).includes('ic_chip')) {
    throw new AppError('VerificationMethodNotOffered', 'This session does not offer the IC chip method');
  }
}

/** What the page shows the person, and what a reader needs to begin. */
export interface IssuedChipReader {
  /** Opened by the reader app (its JSON says what to read and where to send it). */
  url: string;
  /** The same for an app on this device. */
  deepLink: string;
  /** The URL as a QR code, an SVG document (no script; shown as an image). */
  qrSvg: string;
  expiresAt: string;
  /** Which card, and what opens its chip (docs/ic-chip.md). */
  document: ChipDocumentAsked;
}

export interface ChipDocumentAsked {
  /** ICAO 9303 eMRTD: a passport with the chip symbol on its cover. */
  kind: 'icao_emrtd';
  documentType: 'passport';
  /**
   * mrz: the chip opens with a key from the document number, birth date and expiry date printed
   * in the MRZ (BAC, and PACE with the MRZ as password); the reader asks for them or scans them.
   */
  access: 'mrz';
}

const DOCUMENT_ASKED: ChipDocumentAsked = { kind: 'icao_emrtd', documentType: 'passport', access: 'mrz' };

export async function issueChipReader(platform: Platform, context: FlowContext): Promise<IssuedChipReader> {
  requireOpenFlow(context);
  const { session } = context;
  if (session.consented_at === null) throw new AppError('FlowStepOutOfOrder', 'Consent comes first');
  await requireChipOffered(platform, session);
  const now = platform.now();
  const expiresAt = new Date(Math.min(now.getTime() + CHIP_READER_VALIDITY_MS, session.expires_at.getTime()));
  const code = randomBase62(CODE_LENGTH);
  await platform.database.db
    .insertInto('chip_reader_links')
    .values({
      token_hash: codeHash(code),
      session_id: session.id,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  const url = new URL(`/verify/chip/${code}`, platform.config.publicUrl).toString();
  const qr = qrcode(0, 'M');
  qr.addData(url, 'Byte');
  qr.make();
  return {
    url,
    deepLink: `${CHIP_READER_SCHEME}://read?url=${encodeURIComponent(url)}`,
    qrSvg: qr.createSvgTag({ cellSize: 4, margin: 4 }),
    expiresAt: expiresAt.toISOString(),
    document: DOCUMENT_ASKED,
  };
}

/** The session a reader's code gives access to, while the code and the session are usable. */
async function sessionOfCode(platform: Platform, db: Db, code: string, lock = false): Promise<SessionRow> {
  if (!CHIP_READER_CODE.test(code)) throw new AppError('ChipReaderLinkInvalid');
  const link = await db
    .selectFrom('chip_reader_links')
    .selectAll()
    .where('token_hash', '=', codeHash(code))
    .executeTakeFirst();
  const now = platform.now().getTime();
  if (!link || link.used_at !== null || now >= link.expires_at.getTime()) {
    throw new AppError('ChipReaderLinkInvalid');
  }
  const session = await findSession(db, link.session_id, lock);
  if (
    !session ||
    session.submitted_at !== null ||
    session.status !== 'in_progress' ||
    now >= session.expires_at.getTime()
  ) {
    throw new AppError('ChipReaderLinkInvalid');
  }
  return session;
}

/** What a reader is told when it opens the code's URL. */
export async function describeChipReader(platform: Platform, code: string) {
  const session = await sessionOfCode(platform, platform.database.db, code);
  const base = new URL(`/verify/chip/${code}/`, platform.config.publicUrl);
  return {
    document: DOCUMENT_ASKED,
    nonceUrl: new URL('nonce', base).toString(),
    readingUrl: new URL('reading', base).toString(),
    expiresAt: session.expires_at.toISOString(),
    limits: { ...CHIP_FILE_LIMITS },
  };
}

export async function issueChipNonce(
  platform: Platform,
  code: string,
): Promise<{ nonce: string; expiresAt: string }> {
  const session = await sessionOfCode(platform, platform.database.db, code);
  const now = platform.now();
  const nonce = randomBytes(8).toString('hex');
  const expiresAt = new Date(Math.min(now.getTime() + CHIP_NONCE_VALIDITY_MS, session.expires_at.getTime()));
  await platform.database.db
    .insertInto('chip_nonces')
    .values({ session_id: session.id, nonce, issued_at: now, expires_at: expiresAt, used_at: null })
    .execute();
  return { nonce, expiresAt: expiresAt.toISOString() };
}

/** A base64 field of at most `maxBytes` decoded bytes (the schema refuses longer text). */
const base64 = (maxBytes: number, description: string) =>
  Type.String({
    minLength: 4,
    maxLength: Math.ceil(maxBytes / 3) * 4,
    pattern: '^[A-Za-z0-9+/]+={0,2}$',
    description,
  });

export const ChipReadingBody = Type.Object(
  {
    nonce: Type.String({ pattern: '^[0-9a-f]{16}$', description: 'The nonce the chip signed (hex)' }),
    sod: base64(CHIP_FILE_LIMITS.sod, 'EF.SOD with its 77 tag'),
    dataGroups: Type.Object(
      {
        '1': base64(CHIP_FILE_LIMITS.dg1, 'EF.DG1 (61): the MRZ'),
        '2': base64(CHIP_FILE_LIMITS.dg2, 'EF.DG2 (75): the face'),
        '14': Type.Optional(base64(CHIP_FILE_LIMITS.dg14, 'EF.DG14 (6E): security infos')),
        '15': Type.Optional(base64(CHIP_FILE_LIMITS.dg15, 'EF.DG15 (6F): the AA public key')),
      },
      { additionalProperties: false },
    ),
    activeAuthenticationSignature: Type.Optional(
      base64(CHIP_FILE_LIMITS.activeAuthenticationSignature, "The chip's INTERNAL AUTHENTICATE answer"),
    ),
  },
  { additionalProperties: false },
);
export interface ChipReadingBody {
  nonce: string;
  sod: string;
  dataGroups: { '1': string; '2': string; '14'?: string; '15'?: string };
  activeAuthenticationSignature?: string;
}

/** The largest request body a reading can be (every field at its limit, base64, and the JSON around it). */
export const CHIP_READING_BODY_LIMIT =
  Object.values(CHIP_FILE_LIMITS).reduce((sum, n) => sum + Math.ceil(n / 3) * 4, 0) + 4096;

function decode(text: string, field: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  // Buffer.from ignores what is not base64; the pattern allows only base64, and this catches padding
  // in the middle or a length that is not a whole number of quads.
  if (text.length % 4 !== 0 || bytes.toString('base64') !== text) {
    throw new AppError('ValidationFailed', `${field} is not base64`, [
      { path: `/${field.replace('.', '/')}`, message: 'must be base64' },
    ]);
  }
  return bytes;
}

/** The stored reading, as the pipeline's icChip and faceMatch read it. */
export interface StoredChipReading {
  sod: string;
  dataGroups: Partial<Record<'1' | '2' | '14' | '15', string>>;
  activeAuthenticationSignature?: string;
}

export async function receiveChipReading(
  platform: Platform,
  code: string,
  body: ChipReadingBody,
): Promise<{ accepted: true; dataGroups: number[]; activeAuthenticationAnswered: boolean }> {
  const db = platform.database.db;
  const session = await sessionOfCode(platform, db, code);
  const reading: ChipReading = {
    sod: decode(body.sod, 'sod'),
    dataGroups: {},
  };
  for (const n of ['1', '2', '14', '15'] as const) {
    const text = body.dataGroups[n];
    if (text !== undefined)
      reading.dataGroups[Number(n) as 1 | 2 | 14 | 15] = decode(text, `dataGroups.${n}`);
  }
  if (body.activeAuthenticationSignature !== undefined) {
    reading.activeAuthenticationSignature = decode(
      body.activeAuthenticationSignature,
      'activeAuthenticationSignature',
    );
  }
  // Spent before anything is judged, in its own statement: whatever follows, this nonce was used.
  const now = platform.now();
  const spent = await db
    .updateTable('chip_nonces')
    .set({ used_at: now })
    .where('session_id', '=', session.id)
    .where('nonce', '=', body.nonce)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('nonce')
    .executeTakeFirst();
  if (!spent) throw new AppError('ChipNonceInvalid');
  try {
    // Usable at all? (Sizes, DG1, an SOD that parses, algorithms known.) No trust anchor is given:
    // the verdict is the pipeline's, against the trust store as configured when it runs.
    verifyChipReading(reading, { trustAnchors: [], nonce: Buffer.from(body.nonce, 'hex'), now });
  } catch (error) {
    if (!(error instanceof ChipReadingRejected)) throw error;
    throw new AppError('ChipReadingRejected', error.message, [
      { path: `/${error.field.replace('.', '/')}`, message: error.message },
    ]);
  }
  const stored: StoredChipReading = {
    sod: body.sod,
    dataGroups: body.dataGroups,
    ...(body.activeAuthenticationSignature
      ? { activeAuthenticationSignature: body.activeAuthenticationSignature }
      : {}),
  };
  const sealed = encryptJson(platform.keyring, stored, chipReadingContext(session.id));
  await db.transaction().execute(async (trx) => {
    // The flow may have been submitted, or the code used, since this request began.
    const locked = await sessionOfCode(platform, trx, code, true);
    await trx
      .insertInto('chip_readings')
      .values({ session_id: locked.id, reading_enc: sealed, nonce: body.nonce, read_at: now })
      .onConflict((oc) =>
        oc.column('session_id').doUpdateSet({ reading_enc: sealed, nonce: body.nonce, read_at: now }),
      )
      .execute();
    await trx
      .updateTable('chip_reader_links')
      .set({ used_at: now })
      .where('token_hash', '=', codeHash(code))
      .execute();
  });
  return {
    accepted: true,
    dataGroups: Object.keys(reading.dataGroups).map(Number),
    activeAuthenticationAnswered: reading.activeAuthenticationSignature !== undefined,
  };
}

/** When the session's accepted reading was handed in (null: none). */
export async function findChipReadingTime(db: Db, sessionId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('chip_readings')
    .select('read_at')
    .where('session_id', '=', sessionId)
    .where('reading_enc', 'is not', null)
    .executeTakeFirst();
  return row?.read_at ?? null;
}

/** The session's accepted reading with the nonce it answered, decrypted (null: none, or erased). */
export async function loadChipReading(
  platform: Pick<Platform, 'database' | 'keyring'>,
  sessionId: string,
): Promise<{ reading: ChipReading; nonce: Buffer } | null> {
  const row = await platform.database.db
    .selectFrom('chip_readings')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  if (!row?.reading_enc) return null;
  const stored = decryptJson<StoredChipReading>(
    platform.keyring,
    row.reading_enc,
    chipReadingContext(sessionId),
  );
  const reading: ChipReading = { sod: Buffer.from(stored.sod, 'base64'), dataGroups: {} };
  for (const [n, text] of Object.entries(stored.dataGroups))
    if (text) reading.dataGroups[Number(n) as 1 | 2 | 14 | 15] = Buffer.from(text, 'base64');
  if (stored.activeAuthenticationSignature)
    reading.activeAuthenticationSignature = Buffer.from(stored.activeAuthenticationSignature, 'base64');
  return { reading, nonce: Buffer.from(row.nonce, 'hex') };
}

/**
 * The session's reading, if one was accepted, and the names and birth date of its MRZ for the
 * personal-data form's suggestion (null fields: DG1 does not parse). Not verified here: the form
 * only suggests, and the pipeline compares what the person submits with the verified chip.
 */
export async function readChipFields(
  platform: Pick<Platform, 'database' | 'keyring' | 'now'>,
  sessionId: string,
): Promise<{ fields: { lastName?: string; firstName?: string; birthDate?: string } | null } | null> {
  const stored = await loadChipReading(platform, sessionId);
  if (!stored) return null;
  const dg1 = stored.reading.dataGroups[1];
  try {
    const { lastName, firstName, birthDate } = chipIdentity(parseDg1(dg1 as Buffer), platform.now());
    const fields = {
      ...(lastName ? { lastName } : {}),
      ...(firstName ? { firstName } : {}),
      ...(birthDate ? { birthDate } : {}),
    };
    return { fields: Object.keys(fields).length > 0 ? fields : null };
  } catch {
    return { fields: null };
  }
}

/** Erasure (redact, retention): the readings hold the MRZ and the face. */
export async function eraseChipReadings(db: Db, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db
    .updateTable('chip_readings')
    .set({ reading_enc: null })
    .where('session_id', 'in', sessionIds)
    .execute();
}
