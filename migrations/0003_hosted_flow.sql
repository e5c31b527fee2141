-- The hosted verification flow (issue 5; interface §1, §2.3–2.5, §8; design.md "verificationUrl").
ALTER TABLE verification_sessions
  -- SHA-256 of the flow cookie set at the first valid use of the link; the cookie itself is never stored.
  ADD COLUMN flow_cookie_hash text UNIQUE,
  ADD COLUMN consented_at timestamptz,
  -- interface §2.3, AES-256-GCM (design.md "Data at rest").
  ADD COLUMN user_input_enc text,
  -- interface §2.5: success, or failed after the last allowed attempt; NULL before any attempt.
  ADD COLUMN liveness_status text CHECK (liveness_status IN ('success', 'failed')),
  ADD COLUMN liveness_confidence double precision,
  ADD COLUMN liveness_attempts integer NOT NULL DEFAULT 0,
  -- Blob key of the best frontal frame of the passed attempt.
  ADD COLUMN liveness_reference_blob text;

-- One row per uploaded side; the image itself is an encrypted blob (design.md).
CREATE TABLE session_documents (
  session_id text NOT NULL REFERENCES verification_sessions (id),
  side text NOT NULL CHECK (side IN ('front', 'back')),
  blob_key text NOT NULL,
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  byte_size integer NOT NULL,
  uploaded_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, side)
);

-- Issued live-face challenges: single use, time-limited (issue 5 item 3).
CREATE TABLE liveness_challenges (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES verification_sessions (id),
  steps text[] NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  passed boolean,
  confidence double precision,
  failure_reasons text[],
  -- Blob keys of the uploaded frames (re-encoded), kept for the selfie spoof check.
  frame_blobs text[]
);
CREATE INDEX liveness_challenges_session ON liveness_challenges (session_id, issued_at);
