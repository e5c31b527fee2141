-- IC-chip verification (docs/ic-chip.md). What the tenant asked for at creation (null: the
-- tenant's default, else image), and the method the person used, set at submission.
ALTER TABLE verification_sessions
  ADD COLUMN verification_methods text[],
  ADD COLUMN verification_method text;

-- The hand-off from the hosted page to a chip reader (a phone app, or a PC/SC reader's helper): a
-- code that lets its holder take nonces for the session and hand in one reading. Only its SHA-256
-- is stored; it ends with the session, or once a reading is accepted.
CREATE TABLE chip_reader_links (
  token_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES verification_sessions (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX chip_reader_links_session ON chip_reader_links (session_id);

-- The nonces the service issued for Active Authentication (ICAO 9303 Part 11 §6.1): 8 random
-- bytes (hex) the chip signs. Each is spent by the first reading that names it, accepted or not,
-- so an answer recorded once cannot be handed in again.
CREATE TABLE chip_nonces (
  session_id text NOT NULL REFERENCES verification_sessions (id),
  nonce text NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (session_id, nonce)
);

-- The reading accepted for a session: EF.SOD, the data groups and the chip's answer as the reader
-- handed them, with the nonce answered, AES-256-GCM (personal data: the MRZ and the face). Written
-- in one statement once the reading was judged usable; erased with the session's personal data.
CREATE TABLE chip_readings (
  session_id text PRIMARY KEY REFERENCES verification_sessions (id),
  reading_enc text,
  nonce text NOT NULL,
  read_at timestamptz NOT NULL
);
