-- Manual review, review claims and tenant blacklists (issue 8; issue 6 item 2; docs/console-api.md).

-- A reviewer's lock on a pending case (15 min, extended by the holder's re-claim), so two
-- reviewers never decide the same case. One row per session; an expired row is free to take.
CREATE TABLE review_claims (
  session_id text PRIMARY KEY REFERENCES verification_sessions (id),
  tenant_id text NOT NULL,
  user_id text NOT NULL,
  reviewer_email text NOT NULL,
  claimed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Reviewers' decisions. `final` ones wrote a decisions row (kind = 'review') and a webhook event;
-- an approval of an automatically rejected case may first wait for a second reviewer
-- (tenants.settings.secondReviewForRejectedApproval).
CREATE TABLE reviews (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES verification_sessions (id),
  tenant_id text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  reason_code text,
  reason text NOT NULL,
  reviewed_by text NOT NULL,
  reviewer_user_id text,
  source text NOT NULL CHECK (source IN ('console', 'api')),
  status text NOT NULL CHECK (status IN ('final', 'awaiting_confirmation', 'overruled')),
  confirmed_by text,
  confirmed_by_user_id text,
  created_at timestamptz NOT NULL,
  decided_at timestamptz
);
-- A reviewer's decision is final: at most one per session, and at most one waiting.
CREATE UNIQUE INDEX reviews_one_final ON reviews (session_id) WHERE status = 'final';
CREATE UNIQUE INDEX reviews_one_waiting ON reviews (session_id) WHERE status = 'awaiting_confirmation';
CREATE INDEX reviews_tenant ON reviews (tenant_id, created_at);

-- Tenant blacklist entries. The conditions are personal data: name, birth date and document
-- number are stored encrypted (bound to the row id) and compared in memory after Japanese
-- normalisation; the face is an encrypted face-api descriptor copied from a session's selfie.
CREATE TABLE blacklist_entries (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  label text NOT NULL,
  match_mode text NOT NULL CHECK (match_mode IN ('exact', 'fuzzy')),
  action text NOT NULL CHECK (action IN ('reject', 'review')),
  conditions_enc text NOT NULL,
  face_descriptor_enc text,
  face_from_session_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX blacklist_entries_tenant ON blacklist_entries (tenant_id, created_at);
