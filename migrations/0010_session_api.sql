-- The tenant API's list, cancel and reprocess notice (docs/api-reference.md "Listing sessions",
-- "Cancelling a session", "Reprocess").
ALTER TABLE verification_sessions
  -- Set when the tenant cancelled the unfinished session (its status becomes expired then).
  ADD COLUMN cancelled_at timestamptz,
  -- The latest reprocess request, told to the tenant in the payload of a decision it changes.
  ADD COLUMN reprocess_requested_at timestamptz,
  ADD COLUMN reprocess_reason text;

-- GET /v1/verification-sessions pages through one tenant's sessions newest first.
CREATE INDEX verification_sessions_tenant_created
  ON verification_sessions (tenant_id, created_at DESC, id DESC);
