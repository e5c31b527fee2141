// fraudSignalAnalysis (interface §2.9, §2.10): signals {type, severity, message,
// code} and a riskScore 0–100 from facts the pipeline gathers (gather-fraud-facts.ts). Pure, so
// every signal is tested on plain values.
import { compareIdentityFields, type IdentityFields } from '../../japanese/index.ts';
import { type Check, PROVIDER } from '../check.ts';
import { FRAUD_SIGNALS_VERSION, fraudSignalsDefinition } from './definition.ts';

export type Severity = 'low' | 'medium' | 'high';

export interface FraudSignal {
  type: string;
  severity: Severity;
  message: string;
  code: string;
}

/** Another session of the tenant whose selfie shows (nearly) the same face. */
export interface SameFaceSession {
  sessionId: string;
  similarity: number;
  /** True when its identity (name + birth date) differs from this session's. */
  differentIdentity: boolean;
}

/** Another session of the tenant with the same document number. */
export interface SameDocumentSession {
  sessionId: string;
  /** Similarity of its selfie with this session's; null when it has none. */
  faceSimilarity: number | null;
}

/** A tenant blacklist entry the session matched (found by blacklist.ts). */
export interface BlacklistHit {
  id: string;
  matchMode: 'exact' | 'fuzzy';
  action: 'reject' | 'review';
  on: 'name_birth_date' | 'document_number' | 'face';
}

export interface FraudFacts {
  /** "today" for expiry and age. */
  now: Date;
  minimumAge: number;
  /** Face similarity at or above which two selfies count as the same face. */
  sameFaceSimilarity: number;
  sameFaceSessions: SameFaceSession[];
  sameDocumentSessions: SameDocumentSession[];
  /**
   * Distinct identities (name + birth date) among the tenant's sessions created from this
   * clientIpAddress in the hour before this one, this one included; null when not counted (no
   * clientIpAddress, or a loopback one: see gather-fraud-facts.ts).
   */
  identitiesFromIpLastHour: number | null;
  clientIp: string | null;
  firstAccessIp: string | null;
  userInput: IdentityFields | null;
  ocr: IdentityFields | null;
  expiryDate: string | null;
  /** False when the expiry date was read on a poor capture and nothing confirms it (OcrExtras). */
  expiryDateReliable: boolean;
  birthDate: string | null;
  /** MRZ / My Number check digits: false when one failed; null when none was read. */
  checkDigitsValid: boolean | null;
  /** Seconds from opening the link to submitting; null when unknown. */
  flowSeconds: number | null;
  /** Seconds between issuing the live-face challenge and receiving the frames. */
  livenessSeconds: number | null;
  blacklistHits: BlacklistHit[];
}

export interface FraudAnalysis {
  riskScore: number;
  signals: FraudSignal[];
  documentExpired: boolean;
  /** Blacklist outcome for decision.metadata (blacklistMatches, blacklistAction, blacklistCheckedAt). */
  blacklist: { matches: BlacklistHit[]; action: 'reject' | 'review' | null; checkedAt: string } | null;
  provider: typeof PROVIDER;
  model: string;
  version: string;
}

/** Points per severity; several high signals reach the reject score (interface §3.2 "several fraud signals"). */
const WEIGHT: Record<Severity, number> = { low: 5, medium: 20, high: 40 };

/** Under this from link to submit, nobody photographed a document and did a live check by hand. */
export const MIN_HUMAN_FLOW_SECONDS = 15;
/** Under this, the live-face challenge (several poses) was answered faster than a person moves. */
export const MIN_LIVENESS_SECONDS = 2;
/**
 * Distinct identities per IP per hour: medium from this many, high from twice as many. Identities,
 * not sessions: one person retrying (a blurred photo, a failed live check, a new link from the
 * tenant) opens several sessions from one address, and that is not velocity; many different
 * people behind one address in an hour is what a fraud farm looks like. Medium on its own (20
 * points) stays under the review score: a shared address (an office NAT, mobile carrier-grade NAT,
 * common in Japan) is also where honest people meet, so it only adds weight to other signals.
 */
export const SESSIONS_PER_IP_HOUR = 5;

export function ageOn(birthDate: string, now: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  const today = now.toISOString().slice(0, 10);
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

export function analyzeFraudSignals(facts: FraudFacts): FraudAnalysis {
  const signals: FraudSignal[] = [];
  const add = (code: string, severity: Severity, message: string, type = 'fraud') =>
    signals.push({ type, severity, message, code });

  for (const other of facts.sameFaceSessions.filter((s) => s.differentIdentity)) {
    add(
      'same_face_different_identity',
      'high',
      `The same face was seen in session ${other.sessionId} with different identity data`,
      'identity',
    );
  }
  for (const other of facts.sameDocumentSessions) {
    if (other.faceSimilarity !== null && other.faceSimilarity < facts.sameFaceSimilarity) {
      add(
        'same_document_different_face',
        'high',
        `The same document number was used in session ${other.sessionId} by a different face`,
        'document',
      );
    }
  }
  const identities = facts.identitiesFromIpLastHour;
  if (identities !== null && identities >= SESSIONS_PER_IP_HOUR) {
    add(
      'ip_velocity',
      identities >= 2 * SESSIONS_PER_IP_HOUR ? 'high' : 'medium',
      `${identities} different identities from this IP address within an hour`,
      'network',
    );
  }
  if (facts.clientIp && facts.firstAccessIp && facts.clientIp !== facts.firstAccessIp) {
    add(
      'ip_mismatch',
      'medium',
      'The link was opened from another IP address than clientIpAddress',
      'network',
    );
  }
  if (facts.userInput && facts.ocr) {
    const { mismatchedFields } = compareIdentityFields(facts.userInput, facts.ocr, { unreadIsUnknown: true });
    if (mismatchedFields.length > 0) {
      add(
        'user_input_ocr_mismatch',
        mismatchedFields.length >= 2 ? 'medium' : 'low',
        `Entered data differs from the document: ${mismatchedFields.join(', ')}`,
        'identity',
      );
    }
  }
  const today = facts.now.toISOString().slice(0, 10);
  const expired = facts.expiryDate !== null && facts.expiryDate < today;
  // A date misread on a poor capture must not reject a valid card: it is shown, not acted on.
  const documentExpired = expired && facts.expiryDateReliable;
  if (documentExpired)
    add('document_expired', 'medium', `The document expired on ${facts.expiryDate}`, 'document');
  else if (expired)
    add(
      'document_expired',
      'low',
      `The document may have expired on ${facts.expiryDate} (a date read on a poor capture)`,
      'document',
    );
  if (facts.birthDate && /^\d{4}-\d{2}-\d{2}$/.test(facts.birthDate)) {
    const age = ageOn(facts.birthDate, facts.now);
    if (age < facts.minimumAge)
      add('underage', 'high', `Age ${age} is under the minimum of ${facts.minimumAge}`, 'identity');
  }
  if (facts.checkDigitsValid === false) {
    add('check_digit_failure', 'high', 'A check digit of the document does not match its data', 'document');
  }
  if (facts.flowSeconds !== null && facts.flowSeconds < MIN_HUMAN_FLOW_SECONDS) {
    add('capture_too_fast', 'medium', `The whole flow took ${Math.round(facts.flowSeconds)} s`, 'behaviour');
  }
  if (facts.livenessSeconds !== null && facts.livenessSeconds < MIN_LIVENESS_SECONDS) {
    add(
      'liveness_too_fast',
      'medium',
      `The live check was answered in ${facts.livenessSeconds.toFixed(1)} s`,
      'behaviour',
    );
  }
  for (const hit of facts.blacklistHits) {
    add(
      'blacklist_match',
      hit.action === 'reject' ? 'high' : 'medium',
      `Blacklist entry ${hit.id} (${hit.on})`,
      'blacklist',
    );
  }
  const riskScore = Math.min(
    100,
    signals.reduce((sum, s) => sum + WEIGHT[s.severity], 0),
  );
  const action = facts.blacklistHits.some((h) => h.action === 'reject')
    ? 'reject'
    : facts.blacklistHits.length > 0
      ? 'review'
      : null;
  return {
    riskScore,
    signals,
    documentExpired,
    blacklist:
      facts.blacklistHits.length > 0
        ? { matches: facts.blacklistHits, action, checkedAt: facts.now.toISOString() }
        : null,
    provider: PROVIDER,
    model: 'mimoto-fraud-rules',
    version: FRAUD_SIGNALS_VERSION,
  };
}

export const fraudSignalsCheck: Check<FraudFacts, FraudAnalysis> = {
  id: fraudSignalsDefinition.id,
  version: FRAUD_SIGNALS_VERSION,
  run: async (facts) => analyzeFraudSignals(facts),
};
