-- The verification pipeline (issue 6; interface §2.6–2.10, §3.2; design.md "Pipeline and decision").
ALTER TABLE verification_sessions
  -- Bumped by every reprocess request; results and decisions name the generation they belong to,
  -- so a retried job never decides twice and a reprocess decides once more (design.md).
  ADD COLUMN pipeline_generation integer NOT NULL DEFAULT 0,
  -- Checks asked for by the current generation (NULL = all, the submission's generation 0).
  ADD COLUMN pipeline_checks text[],
  -- The address the link was first opened from, when the hosted flow records it (fraud signal).
  ADD COLUMN first_access_ip text;

-- One result per (session, check): a job run twice finds it and does not run again; a reprocess
-- (a later generation) replaces it. The result JSON carries OCR personal data: encrypted.
CREATE TABLE check_results (
  session_id text NOT NULL REFERENCES verification_sessions (id),
  check_id text NOT NULL,
  generation integer NOT NULL,
  status text NOT NULL CHECK (status IN ('success', 'unavailable', 'failed')),
  result_enc text NOT NULL,
  provider text NOT NULL,
  model text NOT NULL,
  version text NOT NULL,
  -- sha256 of every input the check read (image bytes, user input), to explain and reproduce.
  input_hashes jsonb NOT NULL,
  duration_ms integer NOT NULL,
  error text,
  completed_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, check_id)
);

-- Decisions, automatic (one per generation) or a reviewer's (issue 8). Thresholds applied are kept.
CREATE TABLE decisions (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES verification_sessions (id),
  tenant_id text NOT NULL,
  generation integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('automatic', 'review')),
  status text NOT NULL CHECK (status IN ('approved', 'rejected', 'pending_review')),
  reason text NOT NULL,
  metadata jsonb NOT NULL,
  thresholds jsonb NOT NULL,
  pre_registered_info_match jsonb,
  user_input_match jsonb,
  decided_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX decisions_one_automatic_per_generation
  ON decisions (session_id, generation) WHERE kind = 'automatic';
CREATE INDEX decisions_session ON decisions (session_id, decided_at);

-- face-api descriptors per session (encrypted: biometric), for "same face in another session".
CREATE TABLE session_face_descriptors (
  session_id text NOT NULL REFERENCES verification_sessions (id),
  tenant_id text NOT NULL,
  source text NOT NULL CHECK (source IN ('document', 'selfie')),
  descriptor_enc text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, source)
);
CREATE INDEX session_face_descriptors_tenant ON session_face_descriptors (tenant_id, created_at);

-- Keyed hashes of identity data per session (no plaintext), for cross-session fraud signals.
CREATE TABLE session_identity_keys (
  session_id text PRIMARY KEY REFERENCES verification_sessions (id),
  tenant_id text NOT NULL,
  document_number_hash text,
  identity_hash text,
  created_at timestamptz NOT NULL
);
CREATE INDEX session_identity_keys_document ON session_identity_keys (tenant_id, document_number_hash);
CREATE INDEX verification_sessions_tenant_ip ON verification_sessions (tenant_id, client_ip, created_at);
