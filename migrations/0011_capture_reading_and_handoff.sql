-- What the hosted flow's capture check read on the uploaded front (names, birth date, address —
-- only the fields read with confidence), AES-256-GCM: the personal-data form's suggestion. Cleared
-- at submission and by the retention sweep; the pipeline's OCR check reads the document again.
ALTER TABLE session_documents ADD COLUMN reading_enc text;

-- Phone hand-off (docs/hosted-flow-api.md "Continue on a phone"): a one-time code the holder of the
-- flow cookie asks for, shown as a QR code; its first use within its short life on another browser
-- moves the session to that browser. Only the code's SHA-256 is stored.
CREATE TABLE flow_handoffs (
  token_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES verification_sessions (id),
  -- The flow cookie (its SHA-256) that asked: that browser follows the progress after the move.
  issuer_cookie_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX flow_handoffs_session ON flow_handoffs (session_id);
CREATE INDEX flow_handoffs_issuer ON flow_handoffs (issuer_cookie_hash);
