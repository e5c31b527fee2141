// The facts fraudSignalAnalysis judges (src/checks/fraud-signals/), read from this session and the
// tenant's other sessions. Identity data crosses sessions only as keyed hashes and encrypted face
// descriptors (docs/decisions.md "Data at rest").

import { faceSimilarity } from '../checks/face-match/index.ts';
import {
  type FraudFacts,
  findBlacklistHits,
  type SameDocumentSession,
  type SameFaceSession,
} from '../checks/fraud-signals/index.ts';
import { checkDigitsVerdict, type OcrExtras } from '../checks/ocr/index.ts';
import type { OcrResult } from '../domain/index.ts';
import type { UserInput } from '../hosted-flow/index.ts';
import { findLastChallenge } from '../hosted-flow/index.ts';
import { normalizeJapaneseText } from '../japanese/index.ts';
import { decryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';
import { comparableWithDocument } from './check-inputs.ts';
import { identityKeyCandidates, identityKeyHash } from './identity-hashes.ts';
import {
  countIdentitiesFromIp,
  findDescriptor,
  listIdentityKeys,
  listSessionsWithDocumentNumber,
  listTenantDescriptors,
  saveIdentityKeys,
} from './pipeline-repository.ts';
import { descriptorContext } from './stored-results.ts';

/** How far back, and how many, other sessions' faces are compared (bounded work per job). */
const FACE_LOOKBACK_DAYS = 90;
const FACE_LOOKBACK_LIMIT = 2000;

export interface FraudInputs {
  ocr: OcrResult;
  ocrExtras: OcrExtras | null;
  userInput: UserInput | null;
  minimumAge: number;
  sameFaceSimilarity: number;
  /** The tenant's face threshold: a fuzzy blacklist entry's face matches from here. */
  faceSimilarityThreshold: number;
}

/**
 * A loopback clientIpAddress is not an end user's network: the hosted flow binds the link to it, so
 * the browser ran on the service's own machine — a tenant's development or demo traffic, where
 * every session shares the address and IP velocity would measure nothing but the tester's pace.
 */
const isLoopback = (ip: string) => /^127\./.test(ip);

/**
 * This session's identity (name, birth date): from the OCR when it read the document with
 * confidence, else from what the user typed. A poor capture's reading (low_confidence) misreads a
 * kanji or a digit now and then: taken as the identity, it made the same person's next session
 * "the same face with different identity data" (a high fraud signal each) and could put a misread
 * birth date under the minimum age.
 */
export function sessionIdentity(inputs: Pick<FraudInputs, 'ocr' | 'userInput'>): {
  lastName: string | undefined;
  firstName: string | undefined;
  birthDate: string | undefined;
} {
  const read = inputs.ocr.status === 'success' ? inputs.ocr.payload : undefined;
  return {
    lastName: read?.lastName ?? inputs.userInput?.lastName,
    firstName: read?.firstName ?? inputs.userInput?.firstName,
    birthDate: read?.birthDate ?? inputs.userInput?.birthDate,
  };
}

export async function gatherFraudFacts(
  platform: Platform,
  session: SessionRow,
  inputs: FraudInputs,
): Promise<FraudFacts> {
  const db = platform.database.db;
  const now = platform.now();
  const tenantId = session.tenant_id;

  const { lastName, firstName, birthDate } = sessionIdentity(inputs);
  const identityValue =
    lastName && firstName && birthDate
      ? `${normalizeJapaneseText(lastName)}|${normalizeJapaneseText(firstName)}|${birthDate}`
      : null;
  const documentNumber = inputs.ocrExtras?.documentNumber?.replace(/\s+/g, '').toUpperCase();
  const keyring = platform.keyring;
  await saveIdentityKeys(db, {
    sessionId: session.id,
    tenantId,
    identityHash: identityValue && identityKeyHash(keyring, tenantId, 'identity', identityValue).hash,
    documentNumberHash: documentNumber
      ? identityKeyHash(keyring, tenantId, 'document', documentNumber).hash
      : null,
    hashKeyId: keyring.currentId,
    now,
  });
  // Other sessions' hashes may be keyed with an older key of the keyring: compare under theirs.
  const myIdentityHashes = identityValue
    ? identityKeyCandidates(keyring, tenantId, 'identity', identityValue)
    : null;

  const openDescriptor = (sessionId: string, enc: string) =>
    Float32Array.from(decryptJson<number[]>(platform.keyring, enc, descriptorContext(sessionId, 'selfie')));
  const mine = await findDescriptor(db, session.id, 'selfie');
  const myFace = mine ? openDescriptor(session.id, mine.descriptor_enc) : null;

  const sameFaceSessions: SameFaceSession[] = [];
  const similarityTo = new Map<string, number>();
  if (myFace) {
    const since = new Date(now.getTime() - FACE_LOOKBACK_DAYS * 86_400_000);
    const others = await listTenantDescriptors(
      db,
      tenantId,
      'selfie',
      session.id,
      since,
      FACE_LOOKBACK_LIMIT,
    );
    for (const other of others) {
      const similarity = faceSimilarity(myFace, openDescriptor(other.session_id, other.descriptor_enc));
      similarityTo.set(other.session_id, similarity);
    }
    const close = [...similarityTo].filter(([, s]) => s >= inputs.sameFaceSimilarity);
    const keys = await listIdentityKeys(
      db,
      tenantId,
      close.map(([id]) => id),
    );
    for (const [sessionId, similarity] of close) {
      const theirs = keys.find((k) => k.session_id === sessionId);
      // Under a key no longer in the keyring the two cannot be compared: not counted as different.
      const mine = theirs?.hash_key_id ? myIdentityHashes?.get(theirs.hash_key_id) : undefined;
      sameFaceSessions.push({
        sessionId,
        similarity,
        differentIdentity: mine !== undefined && !!theirs?.identity_hash && theirs.identity_hash !== mine,
      });
    }
  }

  const sameDocumentSessions: SameDocumentSession[] = [];
  if (documentNumber) {
    const candidates = [...identityKeyCandidates(keyring, tenantId, 'document', documentNumber).values()];
    for (const other of await listSessionsWithDocumentNumber(db, tenantId, candidates, session.id)) {
      let similarity = similarityTo.get(other.session_id) ?? null;
      if (similarity === null && myFace) {
        const theirs = await findDescriptor(db, other.session_id, 'selfie');
        if (theirs) {
          similarity = faceSimilarity(myFace, openDescriptor(other.session_id, theirs.descriptor_enc));
        }
      }
      sameDocumentSessions.push({ sessionId: other.session_id, faceSimilarity: similarity });
    }
  }

  const created = session.created_at;
  const challenge = await findLastChallenge(db, session.id);
  return {
    now,
    minimumAge: inputs.minimumAge,
    sameFaceSimilarity: inputs.sameFaceSimilarity,
    sameFaceSessions,
    sameDocumentSessions,
    identitiesFromIpLastHour:
      session.client_ip && !isLoopback(session.client_ip)
        ? await countIdentitiesFromIp(
            db,
            tenantId,
            session.client_ip,
            new Date(created.getTime() - 3_600_000),
            created,
          )
        : null,
    clientIp: session.client_ip,
    firstAccessIp: session.first_access_ip,
    userInput: inputs.userInput && comparableWithDocument(inputs.userInput, session.document_type),
    ocr: inputs.ocr.payload ?? null,
    expiryDate: inputs.ocrExtras?.expiryDate ?? null,
    // OCR results stored before 1.6.0 carry no flag: their dates were acted on.
    expiryDateReliable: inputs.ocrExtras?.expiryDateReliable ?? true,
    birthDate: birthDate ?? null,
    checkDigitsValid: inputs.ocrExtras ? checkDigitsVerdict(inputs.ocrExtras) : null,
    flowSeconds:
      session.submitted_at && session.link_used_at
        ? (session.submitted_at.getTime() - session.link_used_at.getTime()) / 1000
        : null,
    livenessSeconds: challenge?.used_at
      ? (challenge.used_at.getTime() - challenge.issued_at.getTime()) / 1000
      : null,
    // Exact entries need the same-face similarity, fuzzy ones the tenant's face threshold.
    blacklistHits: await findBlacklistHits(platform, {
      tenantId,
      lastName,
      firstName,
      birthDate,
      documentNumber,
      selfieDescriptor: myFace,
      faceSimilarity: { exact: inputs.sameFaceSimilarity, fuzzy: inputs.faceSimilarityThreshold },
    }),
  };
}
