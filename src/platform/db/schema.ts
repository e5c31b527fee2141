// The tables as the migrations leave them, for Kysely's typed queries.
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

export interface TenantsTable {
  id: string;
  name: string;
  callback_url_prefixes: string[];
  webhook_secret_enc: string;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  label: string | null;
  environment: 'live' | 'test';
  key_hash: string;
  key_hint: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  disabled_at: Date | null;
}

export type SessionStatus =
  | 'pending'
  | 'in_progress'
  | 'liveness_success'
  | 'completed'
  | 'expired'
  | 'failed';
export type VerificationStatus = 'processing' | 'approved' | 'rejected' | 'pending_review';

export interface VerificationSessionsTable {
  id: string;
  tenant_id: string;
  status: Generated<SessionStatus>;
  callback_url: string;
  client_ip: string | null;
  state: string | null;
  pre_registered_info_enc: string | null;
  link_token_hash: string;
  verification_url_enc: string;
  verification_url_expires_at: Date;
  link_used_at: Date | null;
  document_type: string | null;
  submitted_at: Date | null;
  verification_status: VerificationStatus | null;
  failure_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  expires_at: Date;
  // Hosted flow (migration 0003).
  flow_cookie_hash: ColumnType<string | null, string | null | undefined, string | null>;
  consented_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  user_input_enc: ColumnType<string | null, string | null | undefined, string | null>;
  liveness_status: ColumnType<
    LivenessStatus | null,
    LivenessStatus | null | undefined,
    LivenessStatus | null
  >;
  liveness_confidence: ColumnType<number | null, number | null | undefined, number | null>;
  liveness_attempts: Generated<number>;
  liveness_reference_blob: ColumnType<string | null, string | null | undefined, string | null>;
  // Pipeline (migration 0004).
  pipeline_generation: Generated<number>;
  pipeline_checks: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  first_access_ip: ColumnType<string | null, string | null | undefined, string | null>;
  // Retention (migration 0007): when the sweep erased the session's personal data.
  data_erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  // Session API (migration 0010): the tenant's cancel, the latest reprocess request.
  cancelled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  reprocess_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  reprocess_reason: ColumnType<string | null, string | null | undefined, string | null>;
  // IC chip (migration 0016): the methods asked for (null: the tenant's default), the one used.
  verification_methods: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  verification_method: ColumnType<string | null, string | null | undefined, string | null>;
}

export type LivenessStatus = 'success' | 'failed';

/** Hosted flow (migration 0003): one row per uploaded document side. */
export interface SessionDocumentsTable {
  session_id: string;
  side: 'front' | 'back' | 'tilted';
  blob_key: string;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  uploaded_at: Date;
  /** Migration 0011: the capture check's reading of the front, encrypted (the form's suggestion). */
  reading_enc: string | null;
}

/** Migration 0011: one-time codes that move a flow session to a phone. */
export interface FlowHandoffsTable {
  token_hash: string;
  session_id: string;
  issuer_cookie_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** IC chip (migration 0016): a chip reader's hand-off code for one session (its SHA-256). */
export interface ChipReaderLinksTable {
  token_hash: string;
  session_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** IC chip (migration 0016): Active Authentication nonces, each single use. */
export interface ChipNoncesTable {
  session_id: string;
  nonce: string;
  issued_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** IC chip (migration 0016): the reading accepted for a session, encrypted (null once erased). */
export interface ChipReadingsTable {
  session_id: string;
  reading_enc: string | null;
  nonce: string;
  read_at: Date;
}

/** Hosted flow (migration 0003): issued live face challenges. */
export interface LivenessChallengesTable {
  id: string;
  session_id: string;
  steps: string[];
  issued_at: Date;
  expires_at: Date;
  used_at: Date | null;
  passed: boolean | null;
  confidence: number | null;
  failure_reasons: string[] | null;
  frame_blobs: string[] | null;
  light_sequence: Generated<string[]>;
  screen_light: number | null;
  /** What the browser said of its camera (injection-signals.ts CameraReport), as JSON text. */
  camera: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  injection_signals: Generated<string[]>;
}

export type WebhookEventState = 'pending' | 'delivered' | 'failed' | 'gone';

export interface WebhookEventsTable {
  id: string;
  tenant_id: string;
  session_id: string;
  /** The domain's WEBHOOK_EVENT_KINDS; the key is unique per session and kind. */
  kind: string;
  idempotency_key: string;
  event: string;
  callback_url: string;
  endpoint: string;
  /** bytea: Buffer from pg, Uint8Array from PGlite. */
  body_enc: Uint8Array;
  body_sha256: string;
  state: Generated<WebhookEventState>;
  attempt_count: Generated<number>;
  scheduled_attempt_count: Generated<number>;
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  lease_token: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookAttemptsTable {
  event_id: string;
  attempt: number;
  trigger: 'scheduled' | 'manual';
  started_at: Date;
  duration_ms: number;
  outcome: 'success' | 'failure' | 'gone';
  http_status: number | null;
  error_class: string | null;
  error_message: string | null;
  response_snippet: string | null;
  next_attempt_at: Date | null;
}

/** Pipeline (migration 0004): one stored result per (session, check). */
export interface CheckResultsTable {
  session_id: string;
  check_id: string;
  generation: number;
  status: 'success' | 'unavailable' | 'failed';
  result_enc: string;
  provider: string;
  model: string;
  version: string;
  input_hashes: ColumnType<Record<string, string>, string, string>;
  duration_ms: number;
  error: string | null;
  completed_at: Date;
}

/** Pipeline (migration 0004): automatic decisions (one per generation) and reviewers' decisions. */
export interface DecisionsTable {
  id: string;
  session_id: string;
  tenant_id: string;
  generation: number;
  kind: 'automatic' | 'review';
  status: 'approved' | 'rejected' | 'pending_review';
  reason: string;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  thresholds: ColumnType<Record<string, unknown>, string, string>;
  pre_registered_info_match: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  user_input_match: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  decided_at: Date;
}

export interface SessionFaceDescriptorsTable {
  session_id: string;
  tenant_id: string;
  source: 'document' | 'selfie';
  descriptor_enc: string;
  created_at: Date;
}

export interface SessionIdentityKeysTable {
  session_id: string;
  tenant_id: string;
  document_number_hash: string | null;
  identity_hash: string | null;
  /** The keyring key both hashes are keyed with; null: a plain digest not yet rehashed (migration 0008). */
  hash_key_id: string | null;
  created_at: Date;
}

/** Console (migration 0005): accounts of operators, tenant admins and reviewers. */
export interface ConsoleUsersTable {
  id: string;
  email: string;
  role: 'operator' | 'tenant_admin' | 'reviewer';
  tenant_id: string | null;
  password_hash: string | null;
  disabled_at: Date | null;
  failed_login_count: Generated<number>;
  locked_until: Date | null;
  last_login_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ConsolePasswordTokensTable {
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: CreatedAt;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  ip: string | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: Date;
  actor: string;
  actor_user_id: string | null;
  tenant_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  ip: string | null;
}

export interface Tables {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  verification_sessions: VerificationSessionsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  session_documents: SessionDocumentsTable;
  flow_handoffs: FlowHandoffsTable;
  chip_reader_links: ChipReaderLinksTable;
  chip_nonces: ChipNoncesTable;
  chip_readings: ChipReadingsTable;
  liveness_challenges: LivenessChallengesTable;
  check_results: CheckResultsTable;
  decisions: DecisionsTable;
  session_face_descriptors: SessionFaceDescriptorsTable;
  session_identity_keys: SessionIdentityKeysTable;
  console_users: ConsoleUsersTable;
  console_password_tokens: ConsolePasswordTokensTable;
  console_sessions: ConsoleSessionsTable;
  audit_log: AuditLogTable;
  review_claims: ReviewClaimsTable;
  reviews: ReviewsTable;
  blacklist_entries: BlacklistEntriesTable;
}

/** Review (migration 0006): a reviewer's lock on a pending case. */
export interface ReviewClaimsTable {
  session_id: string;
  tenant_id: string;
  user_id: string;
  reviewer_email: string;
  claimed_at: Date;
  expires_at: Date;
}

export type ReviewStatus = 'final' | 'awaiting_confirmation' | 'overruled';

/** Review (migration 0006): reviewers' decisions, console or tenant API. */
export interface ReviewsTable {
  id: string;
  session_id: string;
  tenant_id: string;
  decision: 'approved' | 'rejected';
  reason_code: string | null;
  reason: string;
  reviewed_by: string;
  reviewer_user_id: string | null;
  source: 'console' | 'api';
  status: ReviewStatus;
  confirmed_by: string | null;
  confirmed_by_user_id: string | null;
  created_at: Date;
  decided_at: Date | null;
}

/** Review (migration 0006): tenant blacklist entries; conditions encrypted. */
export interface BlacklistEntriesTable {
  id: string;
  tenant_id: string;
  label: string;
  match_mode: 'exact' | 'fuzzy';
  action: 'reject' | 'review';
  conditions_enc: string;
  face_descriptor_enc: string | null;
  face_from_session_id: string | null;
  created_at: Date;
  updated_at: Date;
}
